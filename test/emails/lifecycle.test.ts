// A subscription's lifecycle emails end to end, each triggered by the real flow (official client,
// hosted checkout, test clocks) and read back once from Mailpit with its recipient, subject and
// links: a failing card's dunning, cancel / uncancel / revoke with the merchant's notifications,
// a plan change, a refund, and a webhook endpoint disabled after failing.
import { describe, expect, it } from "vitest";
import { linkIn, mailsTo, mailsWithMessageId, useWorkflowInfra } from "../harness/index.js";
import { poll, useEmailFlows } from "./flows.js";

const infra = useWorkflowInfra();

describe("lifecycle emails", () => {
  const f = useEmailFlows(infra);

  it("a failing renewal: a payment-failed email per declined attempt with its next retry and the update-card link, past due once, then revoked", async () => {
    const s = await f.shop();
    const product = await s.polar.products.create({
      name: "Almanac",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1200, priceCurrency: "usd" }],
    });
    // Every webhook event type, to show the internal email events never reach an endpoint.
    const endpoint = await s.polar.webhooks.createWebhookEndpoint({
      url: `${f.h.receiver.url}/all`,
      format: "raw",
      events: [...ALL_WEBHOOK_EVENTS],
    });
    const { clockId, customerId, subscriptionId } = await f.subscribe(s, product.id, "2028-07-01T12:00:00Z");
    // The saved card starts declining.
    await infra.knex("payment_methods").where({ customer_id: customerId }).update({ processor_ref: "pm_sandbox_4000000000009995_nofunds" });
    const attempts = [
      "2028-08-01T13:00:00Z",
      "2028-08-03T13:00:00Z",
      "2028-08-08T13:00:00Z",
      "2028-08-15T13:00:00Z",
      "2028-08-22T13:00:00Z",
    ];
    for (const at of attempts) await s.clocks.advance(clockId, at);
    expect((await s.polar.subscriptions.get({ id: subscriptionId })).status).toBe("canceled");

    const rows = await f.settled(s.org.id);
    const failed = rows.filter((r) => r.kind === "subscription_payment_failed");
    // The next retry: 2, 5, 7 and 7 days after each decline (at its period end's time), none after the last.
    expect(failed.map((r) => r.data.payment_failed?.next_payment_attempt_at)).toEqual([
      "2028-08-03T12:00:00.000Z",
      "2028-08-08T12:00:00.000Z",
      "2028-08-15T12:00:00.000Z",
      "2028-08-22T12:00:00.000Z",
      null,
    ]);
    expect(failed.map((r) => [r.recipient, r.status])).toEqual(attempts.map(() => [s.buyer, "sent"]));
    const texts: string[] = [];
    for (const row of failed) {
      const mails = await mailsWithMessageId(s.buyer, row.message_id);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(row.subject);
      expect(linkIn(mails[0], `/${s.org.slug}/portal/payment-methods`)).toBeTruthy();
      texts.push(mails[0].text);
    }
    expect(texts[0]).toContain("August 3, 2028");
    expect(texts[3]).toContain("August 22, 2028");
    const first = await f.onceArrived(s.org.id, "subscription_past_due", s.buyer);
    expect(linkIn(first.mail, `/${s.org.slug}/portal/payment-methods`)).toBeTruthy();
    const revoked = await f.onceArrived(s.org.id, "subscription_revoked", s.buyer);
    expect(revoked.mail.text).toContain("Almanac");
    // The merchant hears of the cancellation the dunning ended in.
    for (const who of [s.people.owner, s.people.admin]) await f.onceArrived(s.org.id, "notification_subscription_cancellation", who);
    expect(await mailsTo(s.people.member)).toEqual([]);

    const [{ n: internal }] = await infra
      .knex("outbox")
      .where({ organization_id: s.org.id })
      .where("type", "like", "email.%")
      .count({ n: "*" });
    expect(Number(internal)).toBe(5);
    const queued: string[] = await infra.knex("webhook_events").where({ endpoint_id: endpoint.id }).pluck("type");
    expect(queued).toContain("subscription.revoked");
    expect(queued.filter((t) => t.startsWith("email."))).toEqual([]);
  });

  it("cancel at period end, uncancel and revoke: the customer's emails and the merchant's cancellation notices, once each", async () => {
    const s = await f.shop();
    const product = await s.polar.products.create({
      name: "Gazette",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }],
    });
    const { subscriptionId } = await f.subscribe(s, product.id, "2028-02-10T09:00:00Z");
    await s.polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    const cancellation = await f.onceArrived(s.org.id, "subscription_cancellation", s.buyer);
    expect(cancellation.row.subject).toContain("Gazette");
    expect(linkIn(cancellation.mail, `/${s.org.slug}/portal/subscriptions`)).toContain(subscriptionId);
    const notice = await f.onceArrived(s.org.id, "notification_subscription_cancellation", s.people.owner);
    expect(linkIn(notice.mail, `/subscriptions/${subscriptionId}`)).toBeTruthy();

    await s.polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: false } });
    await f.onceArrived(s.org.id, "subscription_uncanceled", s.buyer);

    await s.polar.subscriptions.revoke({ id: subscriptionId });
    await f.onceArrived(s.org.id, "subscription_revoked", s.buyer);
    // Canceled twice (scheduled, then at once): a notice each, to each owner and admin.
    const notices = (await f.settled(s.org.id)).filter((r) => r.kind === "notification_subscription_cancellation");
    expect(notices.map((r) => r.recipient).sort()).toEqual([s.people.admin, s.people.admin, s.people.owner, s.people.owner].sort());
    // A revoke is no scheduled cancellation.
    expect((await f.settled(s.org.id)).filter((r) => r.kind === "subscription_cancellation")).toHaveLength(1);
  });

  it("a plan change tells the customer the product they left and the one they are on", async () => {
    const s = await f.shop();
    const basic = await s.polar.products.create({
      name: "Basic",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "usd" }],
    });
    const pro = await s.polar.products.create({
      name: "Professional",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }],
    });
    const { subscriptionId } = await f.subscribe(s, basic.id, "2028-05-01T00:00:00Z");
    await s.polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { productId: pro.id, prorationBehavior: "prorate" } });
    const { row, mail } = await f.onceArrived(s.org.id, "subscription_updated", s.buyer);
    expect(row.data.previous_product).toEqual({ id: basic.id, name: "Basic" });
    expect(mail.text).toContain("Basic");
    expect(mail.text).toContain("Professional");
    expect(linkIn(mail, `/${s.org.slug}/portal/subscriptions`)).toContain(subscriptionId);
    // Other updates (a discount, a trial's end) tell nothing.
    expect((await f.settled(s.org.id)).filter((r) => r.kind === "subscription_updated")).toHaveLength(1);
  });

  it("a refund: the customer's refund issued and the merchant's notice, once each", async () => {
    const s = await f.shop();
    const product = await s.polar.products.create({
      name: "Atlas",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "usd" }],
    });
    const { customerId } = await f.subscribe(s, product.id, "2028-06-01T00:00:00Z");
    const order = (await s.polar.orders.list({ customerId })).result.items[0];
    await s.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 1500 });
    const { row, mail } = await f.onceArrived(s.org.id, "order_refunded", s.buyer);
    expect(row.data.refund).toMatchObject({ status: "succeeded", amount: 1500 });
    expect(linkIn(mail, `/${s.org.slug}/portal/orders`)).toContain(order.id);
    const notice = await f.onceArrived(s.org.id, "notification_refund", s.people.admin);
    expect(linkIn(notice.mail, `/orders/${order.id}`)).toBeTruthy();
  });

  it("sends none of the customer emails the organization switched off; the merchant still hears", async () => {
    const s = await f.shop({
      customer_email_settings: JSON.stringify({
        subscription_cancellation: false,
        order_refunded: false,
        subscription_payment_failed: false,
      }),
    });
    const product = await s.polar.products.create({
      name: "Quiet",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "usd" }],
    });
    const { customerId, subscriptionId, clockId } = await f.subscribe(s, product.id, "2028-09-01T00:00:00Z");
    const order = (await s.polar.orders.list({ customerId })).result.items[0];
    await s.polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: 300 });
    await infra
      .knex("payment_methods")
      .where({ customer_id: customerId })
      .update({ processor_ref: "pm_sandbox_4000000000000002_declines" });
    await s.clocks.advance(clockId, "2028-10-01T01:00:00Z");
    await s.polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await f.onceArrived(s.org.id, "notification_refund", s.people.owner);
    await f.onceArrived(s.org.id, "notification_subscription_cancellation", s.people.owner);
    // Past due is still on.
    await f.onceArrived(s.org.id, "subscription_past_due", s.buyer);
    const kinds = (await f.settled(s.org.id)).map((r) => r.kind);
    for (const off of ["subscription_cancellation", "order_refunded", "subscription_payment_failed"]) expect(kinds).not.toContain(off);
  });

  it("a webhook endpoint disabled after failing every delivery tells the owners and admins, once", async () => {
    const s = await f.shop();
    const endpoint = await s.polar.webhooks.createWebhookEndpoint({
      url: "http://127.0.0.1:1/down",
      format: "raw",
      events: ["product.created"],
    });
    await s.polar.products.create({
      name: "Trigger",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 100, priceCurrency: "usd" }],
    });
    await expect
      .poll(async () => (await infra.knex("webhook_endpoints").where({ id: endpoint.id }).first("enabled")).enabled, poll)
      .toBe(false);
    for (const who of [s.people.owner, s.people.admin]) {
      const { row, mail } = await f.onceArrived(s.org.id, "webhook_endpoint_disabled", who);
      expect(row.data.endpoint).toMatchObject({ endpoint_id: endpoint.id, url: "http://127.0.0.1:1/down" });
      expect(mail.text).toContain("http://127.0.0.1:1/down");
      expect(linkIn(mail, `/webhooks-endpoints/${endpoint.id}`)).toBeTruthy();
    }
    expect(await mailsTo(s.people.member)).toEqual([]);
  });
});

/** Every webhook event type an endpoint can subscribe to. */
const ALL_WEBHOOK_EVENTS = [
  "checkout.created",
  "checkout.updated",
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "customer.state_changed",
  "order.created",
  "order.updated",
  "order.paid",
  "order.refunded",
  "subscription.created",
  "subscription.updated",
  "subscription.active",
  "subscription.canceled",
  "subscription.uncanceled",
  "subscription.revoked",
  "refund.created",
  "refund.updated",
  "product.created",
  "product.updated",
  "benefit.created",
  "benefit.updated",
  "benefit_grant.created",
  "benefit_grant.cycled",
  "benefit_grant.updated",
  "benefit_grant.revoked",
  "organization.updated",
] as const;
