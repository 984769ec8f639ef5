// The benefit granted email and the periodic emails end to end, each read back once from Mailpit:
// a purchase's license key and downloadable file (a link that works without signing in until the
// grant is revoked); a yearly plan's renewal reminder 7 days ahead, by test clock; the
// card-expiring reminder. A test clock's advance triggers the `email-reminders` Schedule's runs.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Polar } from "@polar-sh/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { emailRemindersScheduleId } from "../../workflows/shared/ids.js";
import { createCustomerSessionToken, linkIn, mailsWithMessageId, useWorkflowInfra } from "../harness/index.js";
import { poll, useEmailFlows } from "./flows.js";

// This file's own storage directory (read when the storage is first used).
const filesDir = mkdtempSync(path.join(tmpdir(), "borealis-email-files-"));
process.env.FILES_DIR = filesDir;
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

const infra = useWorkflowInfra();

/** Uploads `bytes` as a downloadable in one part, as the dashboard does. */
async function upload(polar: Polar, bytes: Buffer, name: string) {
  const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("base64");
  const created = await polar.files.create({
    service: "downloadable",
    name,
    mimeType: "application/pdf",
    size: bytes.length,
    checksumSha256Base64: sha256(bytes),
    upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: bytes.length, checksumSha256Base64: sha256(bytes) }] },
  });
  const part = created.upload.parts[0];
  const put = await fetch(part.url, { method: "PUT", headers: part.headers, body: Uint8Array.from(bytes) });
  expect(put.status).toBe(200);
  return polar.files.uploaded({
    id: created.id,
    fileUploadCompleted: {
      id: created.upload.id,
      path: created.upload.path,
      parts: [{ number: 1, checksumEtag: String(put.headers.get("etag")), checksumSha256Base64: sha256(bytes) }],
    },
  });
}

describe("benefit and reminder emails", () => {
  const f = useEmailFlows(infra);

  it("a purchase's license key and downloadable file: the key itself, and a download link that works while the grant holds", async () => {
    const s = await f.shop();
    const bytes = Buffer.from("%PDF-1.4 field notes");
    const file = await upload(s.polar, bytes, "field-notes.pdf");
    const license = await s.polar.benefits.create({
      type: "license_keys",
      description: "Desktop license",
      properties: { prefix: "FN", activations: { limit: 3, enableCustomerAdmin: true } },
    });
    const downloads = await s.polar.benefits.create({
      type: "downloadables",
      description: "Field notes (PDF)",
      properties: { files: [file.id] },
    });
    const product = await s.polar.products.create({
      name: "Field Kit",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2900, priceCurrency: "usd" }],
    });
    await s.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [license.id, downloads.id] } });
    const checkout = await s.polar.checkouts.create({ products: [product.id] });
    await s.anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: s.buyer,
        customerName: "Ada Buyer",
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_success",
      },
    });
    await expect.poll(async () => (await f.settled(s.org.id)).filter((r) => r.kind === "benefit_granted").length, poll).toBe(2);
    const rows = (await f.settled(s.org.id)).filter((r) => r.kind === "benefit_granted");
    const ofBenefit = (id: string) => rows.find((r) => r.data.grant?.benefit_id === id)!;

    // Two grants, two emails to the buyer: each read by its own Message-ID.
    const [key] = await infra.knex("license_keys").where({ benefit_id: license.id });
    const licenseMails = await mailsWithMessageId(s.buyer, ofBenefit(license.id).message_id);
    expect(licenseMails).toHaveLength(1);
    const [licenseMail] = licenseMails;
    expect(licenseMail.subject).toBe(ofBenefit(license.id).subject);
    expect(licenseMail.text).toContain(key.key);
    expect(linkIn(licenseMail, `/${s.org.slug}/portal/benefits`)).toBeTruthy();

    const downloadRow = ofBenefit(downloads.id);
    const downloadMails = await mailsWithMessageId(s.buyer, downloadRow.message_id);
    expect(downloadMails).toHaveLength(1);
    const link = linkIn(downloadMails[0], "/emails/downloads/");
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // A tampered link is a 404; once the grant is revoked, the link stops working.
    expect((await fetch(link.replace(/signature=./, "signature=x"))).status).toBe(404);
    await infra.knex("benefit_grants").where({ id: downloadRow.data.grant!.id }).update({ revoked_at: new Date() });
    expect((await fetch(link)).status).toBe(404);
  });

  it("a Discord benefit: the email asks the customer to connect their account, once, while its grant waits for that", async () => {
    const s = await f.shop();
    const discord = await s.polar.benefits.create({
      type: "discord",
      description: "Members' lounge",
      properties: { guildToken: "123456789012345678", roleId: "223456789012345678", kickMember: false },
    });
    const product = await s.polar.products.create({
      name: "Lounge Pass",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 500, priceCurrency: "usd" }],
    });
    await s.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [discord.id] } });
    const { customerId } = await f.subscribe(s, product.id, "2028-01-05T00:00:00Z");
    await expect.poll(async () => (await f.settled(s.org.id)).filter((r) => r.kind === "benefit_granted").length, poll).toBe(1);
    const [grant] = await infra.knex("benefit_grants").where({ customer_id: customerId, benefit_id: discord.id });
    expect(grant.granted_at).toBeNull();
    const { row, mail } = await f.onceArrived(s.org.id, "benefit_granted", s.buyer);
    expect(row.dedupe_key).toBe(`grant:${grant.id}`);
    expect(mail.text).toContain("Discord");
    expect(linkIn(mail, `/${s.org.slug}/portal/benefits`)).toBeTruthy();
  });

  it("a yearly plan's renewal reminder 7 days before its renewal, by test clock, once", async () => {
    const s = await f.shop();
    const product = await s.polar.products.create({
      name: "Annual Almanac",
      recurringInterval: "year",
      prices: [{ amountType: "fixed", priceAmount: 12000, priceCurrency: "usd" }],
    });
    const { clockId, subscriptionId } = await f.subscribe(s, product.id, "2028-03-10T12:00:00Z");
    const reminders = async () => (await f.settled(s.org.id)).filter((r) => r.kind === "subscription_renewal_reminder");
    // Eight days before: nothing yet.
    await s.clocks.advance(clockId, "2029-03-02T11:00:00Z");
    await runReminders();
    expect(await reminders()).toEqual([]);
    // Seven days before: the reminder, once however often the Schedule runs.
    await s.clocks.advance(clockId, "2029-03-03T13:00:00Z");
    await expect.poll(async () => (await reminders()).length, poll).toBe(1);
    await s.clocks.advance(clockId, "2029-03-05T13:00:00Z");
    await runReminders();
    const [row] = await reminders();
    expect(row).toMatchObject({ recipient: s.buyer, dedupe_key: `reminder:${subscriptionId}:2029-03-10T12:00:00.000Z` });
    const { mail } = await f.onceArrived(s.org.id, "subscription_renewal_reminder", s.buyer);
    expect(mail.text).toContain("March 10, 2029");
    expect(linkIn(mail, `/${s.org.slug}/portal/subscriptions`)).toContain(subscriptionId);
  });

  it("no renewal reminder to a customer who switched it off in the portal; the other reminder stays on", async () => {
    const s = await f.shop();
    const product = await s.polar.products.create({
      name: "Annual Quiet",
      recurringInterval: "year",
      prices: [{ amountType: "fixed", priceAmount: 9000, priceCurrency: "usd" }],
    });
    const { clockId, customerId } = await f.subscribe(s, product.id, "2028-03-10T12:00:00Z");
    const session = await createCustomerSessionToken(infra.knex, customerId);
    const res = await fetch(`${f.h.api.url}/v1/customer-portal/customers/me`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
      body: JSON.stringify({ email_preferences: { subscription_renewal_reminder: false } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email_preferences: unknown }).email_preferences).toEqual({
      subscription_renewal_reminder: false,
      payment_method_expiration_reminder: true,
    });
    await s.clocks.advance(clockId, "2029-03-05T13:00:00Z");
    await runReminders();
    expect((await f.settled(s.org.id)).filter((r) => r.kind === "subscription_renewal_reminder")).toEqual([]);
  });

  it("the card a subscription renews with, expiring next month: one reminder per card and expiry, with the update-card link", async () => {
    // The shop sends the card-expiring email (its stored switch on).
    const s = await f.shop({ customer_email_settings: JSON.stringify({ payment_method_expiration_reminder: true }) });
    const product = await s.polar.products.create({
      name: "Monthly Map",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "usd" }],
    });
    // Bought in February 2028 with a card that expires at the end of April 2028.
    const { clockId, customerId } = await f.subscribe(s, product.id, "2028-02-15T12:00:00Z", "tok_sandbox_success_exp_04_2028");
    const [method] = await infra.knex("payment_methods").where({ customer_id: customerId });
    expect(method.method_metadata).toMatchObject({ exp_month: 4, exp_year: 2028, last4: "4242" });
    await runReminders();
    expect((await f.settled(s.org.id)).filter((r) => r.kind === "payment_method_expiration_reminder")).toEqual([]);
    // March: it expires next month.
    await s.clocks.advance(clockId, "2028-03-16T13:00:00Z");
    await expect
      .poll(async () => (await f.settled(s.org.id)).filter((r) => r.kind === "payment_method_expiration_reminder").length, poll)
      .toBe(1);
    // April, the month it expires: no second reminder for the same card and expiry.
    await s.clocks.advance(clockId, "2028-04-16T13:00:00Z");
    await runReminders();
    const { row, mail } = await f.onceArrived(s.org.id, "payment_method_expiration_reminder", s.buyer);
    expect(row.dedupe_key).toBe(`card:${method.id}:2028-04`);
    expect(mail.text).toContain("4242");
    expect(mail.text).toContain("April 2028");
    expect(linkIn(mail, `/${s.org.slug}/portal/payment-methods`)).toBeTruthy();
  });

  /** Triggers the Schedule and waits for that run to finish. */
  async function runReminders(): Promise<void> {
    const schedule = f.h.client.schedule.getHandle(emailRemindersScheduleId);
    const at = Date.now() - 1_000;
    await schedule.trigger("BUFFER_ONE");
    await expect
      .poll(async () => {
        const { info } = await schedule.describe();
        return info.runningActions.length === 0 && info.recentActions.some((a) => a.takenAt.getTime() >= at);
      }, poll)
      .toBe(true);
  }
});
