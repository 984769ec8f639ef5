// Who gets which email, as the API sets it: the organization's customer email switches
// (the kinds Polar's object lacks, merged over their defaults) and its branding and reminder lead
// time; each member's own notification mutes; a portal customer's reminders.
import { describe, expect, it } from "vitest";
import { wantsEmail } from "../../server/customers/email-preferences.js";
import { memberSends } from "../../server/emails/kinds/common.js";
import { notificationSettingsLink } from "../../server/emails/links.js";
import { mutedMembers } from "../../server/organizations/notification-mutes-repository.js";
import {
  createCustomer,
  createCustomerSessionToken,
  orgWithToken,
  ownerWithOrganization,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function call(url: string, init: { method?: string; headers: Record<string, string>; body?: unknown }) {
  const res = await fetch(`${api.url}${url}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { detail?: { loc: (string | number)[] }[] } };
}

describe("an organization's email settings", () => {
  it("reads every customer kind on, merged over a row that predates them, and the default branding", async () => {
    const { org, token } = await orgWithToken(api.knex);
    await api
      .knex("organizations")
      .where({ id: org.id })
      .update({ customer_email_settings: JSON.stringify({ order_confirmation: false }) });
    const raw = await call(`/v1/organizations/${org.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(raw.body.customer_email_settings).toMatchObject({
      order_confirmation: false,
      subscription_cycled: true,
      payment_method_expiration_reminder: true,
      subscription_payment_failed: true,
      benefit_granted: true,
      order_refunded: true,
    });
    expect(raw.body.email_settings).toEqual({ brand_color: "#0062ff", renewal_reminder_days: 7 });
  });

  it("updates the switches and the branding, each field kept when not given", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const auth = { authorization: `Bearer ${token}` };
    const first = await call(`/v1/organizations/${org.id}`, {
      method: "PATCH",
      headers: auth,
      body: { email_settings: { brand_color: "#aa3300" }, customer_email_settings: { benefit_granted: false } },
    });
    expect(first.status).toBe(200);
    expect(first.body.email_settings).toEqual({ brand_color: "#aa3300", renewal_reminder_days: 7 });
    const second = await call(`/v1/organizations/${org.id}`, {
      method: "PATCH",
      headers: auth,
      body: { email_settings: { renewal_reminder_days: 30 } },
    });
    expect(second.body.email_settings).toEqual({ brand_color: "#aa3300", renewal_reminder_days: 30 });
    expect(second.body.customer_email_settings).toMatchObject({ benefit_granted: false, order_refunded: true });
  });

  it("refuses a colour that is not #rrggbb and a lead time outside 1..60 with a 422 naming the field", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const cases: [unknown, string][] = [
      [{ brand_color: "blue" }, "brand_color"],
      [{ brand_color: "#12345" }, "brand_color"],
      [{ brand_color: "#12345g" }, "brand_color"],
      [{ renewal_reminder_days: 0 }, "renewal_reminder_days"],
      [{ renewal_reminder_days: 61 }, "renewal_reminder_days"],
      [{ renewal_reminder_days: 2.5 }, "renewal_reminder_days"],
    ];
    for (const [email_settings, field] of cases) {
      const res = await call(`/v1/organizations/${org.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}` },
        body: { email_settings },
      });
      expect(res.status, JSON.stringify(email_settings)).toBe(422);
      expect(res.body.detail?.[0]?.loc, JSON.stringify(email_settings)).toEqual(["body", "email_settings", field]);
    }
    const after = await call(`/v1/organizations/${org.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.body.email_settings).toEqual({ brand_color: "#0062ff", renewal_reminder_days: 7 });
  });
});

describe("a member's notification preferences", () => {
  it("are all on until the member mutes one for themselves; mutedMembers names them", async () => {
    const { browser, userId, organizationId } = await ownerWithOrganization(api.url);
    const path = `/v1/organizations/${organizationId}/notification-preferences`;
    const initial = await call(path, { headers: browser.headers() });
    expect(initial.status).toBe(200);
    expect(Object.values(initial.body).every((on) => on === true)).toBe(true);
    const muted = await call(path, {
      method: "PATCH",
      headers: browser.headers(),
      body: { notification_new_sale: false, notification_refund: false },
    });
    expect(muted.body).toMatchObject({ notification_new_sale: false, notification_refund: false, notification_new_subscription: true });
    expect(await mutedMembers(api.knex, organizationId, "notification_new_sale")).toEqual([userId]);
    const again = await call(path, { method: "PATCH", headers: browser.headers(), body: { notification_new_sale: true } });
    expect(again.body).toMatchObject({ notification_new_sale: true, notification_refund: false });
    expect(await mutedMembers(api.knex, organizationId, "notification_new_sale")).toEqual([]);
    expect(await mutedMembers(api.knex, organizationId, "notification_refund")).toEqual([userId]);
  });

  it("leave out of a notification the owners and admins who muted its kind", async () => {
    const { browser, organizationId } = await ownerWithOrganization(api.url);
    const [admin] = await api
      .knex("users")
      .insert({ name: "Ada Admin", email: uniqueEmail("admin"), email_verified: true })
      .returning(["id", "email"]);
    await api.knex("members").insert({ organization_id: organizationId, user_id: admin.id, role: "admin" });
    await call(`/v1/organizations/${organizationId}/notification-preferences`, {
      method: "PATCH",
      headers: browser.headers(),
      body: { notification_new_sale: false },
    });
    const event = { id: 1, organization_id: organizationId, type: "order.paid", data: "{}" };
    const recipients = (kind: string) =>
      api.knex.transaction(async (trx) => (await memberSends(trx, kind, event, {})).map((s) => s.recipient));
    expect(await recipients("notification_new_sale")).toEqual([admin.email]);
    expect(await recipients("notification_new_subscription")).toHaveLength(2);
  });

  it("are where a notification's settings link leads: the console's Settings → Email", () => {
    expect(new URL(notificationSettingsLink()).pathname).toBe("/dashboard/settings/emails");
  });

  it("are a member's own: an organization token gets 403, another organization 404", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const byToken = await call(`/v1/organizations/${org.id}/notification-preferences`, { headers: { authorization: `Bearer ${token}` } });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error).toBe("NotPermitted");
    const { browser } = await ownerWithOrganization(api.url);
    const other = await call(`/v1/organizations/${org.id}/notification-preferences`, {
      method: "PATCH",
      headers: browser.headers(),
      body: { notification_new_sale: false },
    });
    expect(other.status).toBe(404);
  });
});

describe("a portal customer's email preferences", () => {
  it("offers the reminders, on until switched off, and keeps what is not given", async () => {
    const { org } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id);
    const auth = { authorization: `Bearer ${await createCustomerSessionToken(api.knex, customer.id)}` };
    const me = await call("/v1/customer-portal/customers/me", { headers: auth });
    expect(me.body.email_preferences).toEqual({ subscription_renewal_reminder: true, payment_method_expiration_reminder: true });
    const off = await call("/v1/customer-portal/customers/me", {
      method: "PATCH",
      headers: auth,
      body: { email_preferences: { subscription_renewal_reminder: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.email_preferences).toEqual({ subscription_renewal_reminder: false, payment_method_expiration_reminder: true });
    const stored = await api.knex("customers").where({ id: customer.id }).first("email_preferences");
    expect(wantsEmail(stored, "subscription_renewal_reminder")).toBe(false);
    expect(wantsEmail(stored, "payment_method_expiration_reminder")).toBe(true);
    // Receipts and payment failures are not the customer's to refuse.
    expect(wantsEmail(stored, "order_confirmation")).toBe(true);
    expect(wantsEmail(stored, "subscription_payment_failed")).toBe(true);
    const refused = await call("/v1/customer-portal/customers/me", {
      method: "PATCH",
      headers: auth,
      body: { email_preferences: { order_confirmation: false } },
    });
    expect(refused.body.email_preferences).toEqual({ subscription_renewal_reminder: false, payment_method_expiration_reminder: true });
    expect((await api.knex("customers").where({ id: customer.id }).first("email_preferences")).email_preferences).not.toHaveProperty(
      "order_confirmation",
    );
  });

  it("stay the customer's to change when the organization switched billing details off", async () => {
    const { org } = await orgWithToken(api.knex);
    await api
      .knex("organizations")
      .where({ id: org.id })
      .update({ customer_portal_settings: JSON.stringify({ billing_details: false }) });
    const customer = await createCustomer(api.knex, org.id);
    const auth = { authorization: `Bearer ${await createCustomerSessionToken(api.knex, customer.id)}` };
    const prefs = await call("/v1/customer-portal/customers/me", {
      method: "PATCH",
      headers: auth,
      body: { email_preferences: { payment_method_expiration_reminder: false } },
    });
    expect(prefs.status).toBe(200);
    expect(prefs.body.email_preferences).toEqual({ subscription_renewal_reminder: true, payment_method_expiration_reminder: false });
    const billing = await call("/v1/customer-portal/customers/me", {
      method: "PATCH",
      headers: auth,
      body: { billing_name: "Jane Doe Ltd" },
    });
    expect(billing.status).toBe(403);
    expect(billing.body.error).toBe("NotPermitted");
  });
});
