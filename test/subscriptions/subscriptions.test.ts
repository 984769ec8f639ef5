// Subscriptions end to end through the official client, on billing test clocks: bought through the
// hosted checkout, renewed with month-end anchoring, canceled and uncanceled, revoked, recovering
// with a new card, changing plan with both proration modes, discounts; every filter and sort key,
// the CSV export, the portal calls and the errors. Workflows run on this file's own worker.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import type { Subscription } from "@polar-sh/sdk/models/components/subscription.js";
import { WebhookOrderCreatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookordercreatedpayload.js";
import { WebhookOrderPaidPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookorderpaidpayload.js";
import { WebhookOrderUpdatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhookorderupdatedpayload.js";
import { WebhookSubscriptionActivePayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptionactivepayload.js";
import { WebhookSubscriptionCanceledPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptioncanceledpayload.js";
import { WebhookSubscriptionCreatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptioncreatedpayload.js";
import { WebhookSubscriptionRevokedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptionrevokedpayload.js";
import { WebhookSubscriptionUncanceledPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptionuncanceledpayload.js";
import { WebhookSubscriptionUpdatedPayload$inboundSchema } from "@polar-sh/sdk/models/components/webhooksubscriptionupdatedpayload.js";
import { AlreadyCanceledSubscription } from "@polar-sh/sdk/models/errors/alreadycanceledsubscription.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { ResponseValidationError } from "@polar-sh/sdk/models/errors/responsevalidationerror.js";
import { SubscriptionLocked } from "@polar-sh/sdk/models/errors/subscriptionlocked.js";
import { beforeAll, describe, expect, it } from "vitest";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { subscriptionsDueOnClocks } from "../../server/subscriptions/repository.js";
import { pokeDueOnClocks } from "../../workflows/backstop.js";
import { subscriptionWorkflowId } from "../../workflows/shared/ids.js";
import {
  collectPages,
  createBenefit,
  createCustomerSessionToken,
  createDiscount,
  createSubscriptionFixture,
  orgWithToken,
  outboxTypes,
  rejects,
  testClocks,
  useLifecycleWorker,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 20_000, interval: 100 };

describe("subscriptions", () => {
  const temporal = useLifecycleWorker("subscriptions-test", () => api.knex);
  let polar: Polar;
  let token: string;
  let orgId: string;
  let basic: { id: string; priceId: string };
  let pro: { id: string; priceId: string };
  let benefitId: string;
  const anon = () => new Polar({ serverURL: api.url });

  /** Our test-clock extension is not in the official client: plain JSON calls. */
  const clockCall = (method: string, path: string, body?: unknown) => testClocks(api.url, token, poll).call(method, path, body);
  const advance = (clockId: string, to: string) => testClocks(api.url, token, poll).advance(clockId, to);

  async function product(name: string, amount: number, interval: "month" | "year" = "month") {
    const p = await polar.products.create({
      name,
      recurringInterval: interval,
      prices: [{ amountType: "fixed", priceAmount: amount, priceCurrency: "usd" }],
    });
    return { id: p.id, priceId: p.prices[0].id };
  }

  /** A customer on a new test clock at `at`, subscribed through the hosted checkout. */
  async function subscribe(
    at: string,
    productId = basic.id,
    extra: { discountId?: string; externalId?: string; metadata?: Record<string, string> } = {},
  ) {
    const email = `buyer-${randomUUID().slice(0, 8)}@example.com`;
    const customer = await polar.customers.create({ email, name: "Buyer", externalId: extra.externalId });
    const clock = await clockCall("POST", "", { name: "test", frozen_time: at });
    expect(clock.status).toBe(201);
    const clockId = clock.json.id as string;
    expect((await clockCall("POST", `${clockId}/customers`, { customer_id: customer.id })).status).toBe(200);
    const checkout = await polar.checkouts.create({
      products: [productId],
      customerId: customer.id,
      discountId: extra.discountId,
      metadata: extra.metadata,
    });
    const confirmed = await anon().checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed"); // the confirm answer's own literal
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("succeeded");
    const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    return {
      sub,
      customerId: customer.id,
      clockId,
      checkoutId: checkout.id,
      session: { customerSession: await createCustomerSessionToken(api.knex, customer.id) },
    };
  }

  /**
   * Waits until the subscription's workflow has made its first decision and sleeps on its clock,
   * so a row changed behind its back stays as the test set it.
   */
  async function parked(subscriptionId: string) {
    const handle = temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
    await expect
      .poll(async () => {
        // A local step's marker: its first look at the database is done.
        const events = (await handle.fetchHistory()).events ?? [];
        return events.some((e) => e.markerRecordedEventAttributes != null);
      }, poll)
      .toBe(true);
  }

  /** The subscription as the API sends it: the fields 0.49.0 added, read off the wire. */
  const wire = async (subscriptionId: string) => {
    const res = await fetch(`${api.url}/v1/subscriptions/${subscriptionId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown> & { product: Record<string, unknown> };
  };

  const ordersOf = async (subscriptionId: string) =>
    await api
      .knex("orders")
      .where({ subscription_id: subscriptionId })
      .orderBy("created_at")
      .select("id", "billing_reason", "status", "subtotal_amount", "discount_amount", "billing_period_start");
  const grantsOf = (subscriptionId: string) => api.knex("benefit_grants").where({ subscription_id: subscriptionId });

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
    basic = await product("Basic monthly", 1000);
    pro = await product("Pro monthly", 3000);
    benefitId = (
      await createBenefit(api.knex, orgId, {
        type: "custom",
        description: "Priority support",
        properties: JSON.stringify({ note: "Mail us" }),
      })
    ).id;
    await polar.products.updateBenefits({ id: basic.id, productBenefitsUpdate: { benefits: [benefitId] } });
  }, 120_000);

  it("is bought through the hosted checkout and renews on its test clock, anchored to Jan 31 (Feb 29, Mar 31, Apr 30)", async () => {
    const { sub, customerId, clockId, checkoutId } = await subscribe("2028-01-31T10:00:00Z", basic.id, { metadata: { plan: "basic" } });
    expect(sub).toMatchObject({
      status: "active",
      amount: 1000,
      currency: "usd",
      recurringInterval: "month",
      customerId,
      productId: basic.id,
      checkoutId,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: null,
      metadata: { plan: "basic" },
    });
    expect(sub.startedAt!.toISOString()).toBe("2028-01-31T10:00:00.000Z");
    expect(sub.currentPeriodEnd!.toISOString()).toBe("2028-02-29T10:00:00.000Z");
    expect(sub.prices.map((p) => p.id)).toEqual([basic.priceId]);
    expect(sub.product.id).toBe(basic.id);
    // The first order is the subscription_create order, linked both ways.
    const [first] = await ordersOf(sub.id);
    expect(first).toMatchObject({ billing_reason: "subscription_create", status: "paid" });
    const order = await polar.orders.get({ id: first.id });
    expect(order.subscription).toMatchObject({ id: sub.id, status: "active" });
    // Granted with the subscription; shown in the customer's state.
    await expect.poll(async () => (await grantsOf(sub.id)).filter((g) => g.granted_at && !g.revoked_at).length, poll).toBe(1);
    const state = await polar.customers.getState({ id: customerId });
    expect(state.activeSubscriptions.map((s) => s.id)).toEqual([sub.id]);
    expect(state.grantedBenefits.map((g) => g.benefitId)).toEqual([benefitId]);

    await advance(clockId, "2028-03-01T00:00:00Z");
    await advance(clockId, "2028-04-01T00:00:00Z");
    const renewed = await polar.subscriptions.get({ id: sub.id });
    expect(renewed.currentPeriodStart.toISOString()).toBe("2028-03-31T10:00:00.000Z");
    expect(renewed.currentPeriodEnd!.toISOString()).toBe("2028-04-30T10:00:00.000Z");
    const cycles = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    expect(cycles.map((o) => new Date(o.billing_period_start).toISOString())).toEqual([
      "2028-02-29T10:00:00.000Z",
      "2028-03-31T10:00:00.000Z",
    ]);
    expect(cycles.every((o) => o.status === "paid" && Number(o.subtotal_amount) === 1000)).toBe(true);
    const types = await outboxTypes(api.knex, orgId);
    for (const t of ["subscription.created", "subscription.active", "subscription.updated", "order.paid", "customer.state_changed"])
      expect(types).toContain(t);
    expect(await api.knex("events").where({ customer_id: customerId, name: "subscription.cycled", source: "system" })).toHaveLength(2);
    // Still granted after the renewals.
    expect((await grantsOf(sub.id)).filter((g) => g.granted_at && !g.revoked_at)).toHaveLength(1);
  });

  it("bills every 3 months when the product says so, anchored still (Nov 30 → Feb 29 → May 30), as both clients read it", async () => {
    const quarterly = await api.client049(token).products.create({
      name: "Quarterly",
      recurringInterval: "month",
      recurringIntervalCount: 3,
      prices: [{ amountType: "fixed", priceAmount: 2700, priceCurrency: "usd" }],
    });
    const { sub, clockId } = await subscribe("2027-11-30T08:00:00Z", quarterly.id);
    expect(sub.currentPeriodEnd!.toISOString()).toBe("2028-02-29T08:00:00.000Z");
    const read = await wire(sub.id);
    expect(read).toMatchObject({
      recurring_interval: "month",
      recurring_interval_count: 3,
      trial_start: null,
      trial_end: null,
      pending_update: null,
    });
    expect(read.product).toMatchObject({ recurring_interval_count: 3 });
    // A month in, nothing is due; at the quarter's end it renews once, for a quarter.
    await advance(clockId, "2028-01-01T00:00:00Z");
    expect((await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle")).toHaveLength(0);
    await advance(clockId, "2028-03-01T00:00:00Z");
    expect(await wire(sub.id)).toMatchObject({
      current_period_start: "2028-02-29T08:00:00.000Z",
      current_period_end: "2028-05-30T08:00:00.000Z",
      recurring_interval_count: 3,
    });
    const cycles = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    expect(cycles.map((o) => [new Date(o.billing_period_start).toISOString(), Number(o.subtotal_amount), o.status])).toEqual([
      ["2028-02-29T08:00:00.000Z", 2700, "paid"],
    ]);
    expect((await polar.orders.get({ id: cycles[0].id })).subscription).toMatchObject({ id: sub.id });
  });

  it("moves to a product on another cadence: the time left is charged as a share of the new period, which follows the current one", async () => {
    const yearly = await product("Basic yearly", 12000, "year");
    const { sub, clockId } = await subscribe("2028-01-01T00:00:00Z"); // 31-day period
    await advance(clockId, "2028-01-16T12:00:00Z"); // half of it left: 15.5 days
    const changed = await polar.subscriptions.update({
      id: sub.id,
      subscriptionUpdate: { productId: yearly.id, prorationBehavior: "prorate" },
    });
    // The current period stays as it was; the yearly periods start at its end.
    expect(changed).toMatchObject({ recurringInterval: "year", amount: 12000 });
    expect(changed.currentPeriodEnd!.toISOString()).toBe("2028-02-01T00:00:00.000Z");
    await advance(clockId, "2028-02-02T00:00:00Z");
    const cycle = (await ordersOf(sub.id)).find((o) => o.billing_reason === "subscription_cycle")!;
    const items = await api.knex("order_items").where({ order_id: cycle.id }).orderBy("position");
    // 15.5 of the 366 days from the change to the same day next year (2028 is a leap year).
    expect(items.map((i) => [i.label, Number(i.amount)])).toEqual([
      ["Basic yearly", 12000],
      ["Unused time on Basic monthly", -500],
      ["Remaining time on Basic yearly", Math.round((12000 * 15.5) / 366)],
    ]);
    const after = await polar.subscriptions.get({ id: sub.id });
    expect(after.currentPeriodStart.toISOString()).toBe("2028-02-01T00:00:00.000Z");
    expect(after.currentPeriodEnd!.toISOString()).toBe("2029-02-01T00:00:00.000Z");
  });

  /** A monthly product with a 14-day trial (made through 0.49.0, which sends trials). */
  async function trialProduct(name: string, amount: number) {
    const p = await api.client049(token).products.create({
      name,
      recurringInterval: "month",
      trialInterval: "day",
      trialIntervalCount: 14,
      prices: [{ amountType: "fixed", priceAmount: amount, priceCurrency: "usd" }],
    });
    return { id: p.id, priceId: p.prices[0].id };
  }
  const paymentsOf = (subscriptionId: string) =>
    api
      .knex("payments")
      .join("orders", "orders.id", "payments.order_id")
      .where("orders.subscription_id", subscriptionId)
      .select("payments.status", "payments.amount");
  /** The outbox's subscription events of one subscription, with the status each carried. */
  const subscriptionEvents = async (subscriptionId: string) =>
    (
      await api
        .knex("outbox")
        .where({ organization_id: orgId })
        .whereLike("type", "subscription.%")
        .whereRaw("payload->'data'->>'id' = ?", [subscriptionId])
        .orderBy("id")
    ).map((e: { type: string; payload: { data: { status: string } } }) => `${e.type}:${e.payload.data.status}`);

  it("starts a trial: trialing and charged nothing, the card saved; converts at the trial's end, charged and active", async () => {
    const trial = await trialProduct("Pro with trial", 1500);
    await polar.products.updateBenefits({ id: trial.id, productBenefitsUpdate: { benefits: [benefitId] } });
    const { sub, clockId, customerId, checkoutId } = await subscribe("2028-03-01T10:00:00Z", trial.id);
    expect(sub).toMatchObject({ status: "trialing", amount: 1500, productId: trial.id });
    expect(sub.currentPeriodStart.toISOString()).toBe("2028-03-01T10:00:00.000Z");
    expect(sub.currentPeriodEnd!.toISOString()).toBe("2028-03-15T10:00:00.000Z");
    expect(await wire(sub.id)).toMatchObject({
      trial_start: "2028-03-01T10:00:00.000Z",
      trial_end: "2028-03-15T10:00:00.000Z",
      status: "trialing",
    });
    expect((await polar.checkouts.get({ id: checkoutId })).totalAmount).toBe(1500);
    // The checkout's order is the trial's: 0, paid without a payment; the card is kept for later.
    const [first] = await ordersOf(sub.id);
    expect(first).toMatchObject({ billing_reason: "subscription_create", status: "paid" });
    expect(Number(first.subtotal_amount)).toBe(0);
    expect(await paymentsOf(sub.id)).toEqual([]);
    expect(await api.knex("payment_methods").where({ customer_id: customerId })).toHaveLength(1);
    // The trial gives the product's benefits from its start.
    await expect.poll(async () => (await grantsOf(sub.id)).filter((g) => g.granted_at && !g.revoked_at).length, poll).toBe(1);
    expect(await subscriptionEvents(sub.id)).toEqual(["subscription.created:trialing"]);

    await advance(clockId, "2028-03-10T00:00:00Z");
    expect((await polar.subscriptions.get({ id: sub.id })).status).toBe("trialing");
    await advance(clockId, "2028-03-16T00:00:00Z");
    const active = await polar.subscriptions.get({ id: sub.id });
    expect(active.status).toBe("active");
    expect(active.currentPeriodStart.toISOString()).toBe("2028-03-15T10:00:00.000Z");
    expect(active.currentPeriodEnd!.toISOString()).toBe("2028-04-15T10:00:00.000Z");
    expect(await wire(sub.id)).toMatchObject({ trial_start: "2028-03-01T10:00:00.000Z", trial_end: "2028-03-15T10:00:00.000Z" });
    const cycles = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    expect(cycles.map((o) => [new Date(o.billing_period_start).toISOString(), Number(o.subtotal_amount), o.status])).toEqual([
      ["2028-03-15T10:00:00.000Z", 1500, "paid"],
    ]);
    expect((await paymentsOf(sub.id)).map((p) => [p.status, Number(p.amount)])).toEqual([["succeeded", 1500]]);
    const events = await subscriptionEvents(sub.id);
    expect(events.slice(-2)).toEqual(["subscription.updated:active", "subscription.active:active"]);
    expect(events).not.toContain("subscription.active:trialing");
    // A month later it renews as any other.
    await advance(clockId, "2028-04-16T00:00:00Z");
    expect((await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle")).toHaveLength(2);
  });

  it("extends a trial, then ends it now: the first charge follows at once (PATCH trial_end)", async () => {
    const trial = await trialProduct("Trial to move", 1800);
    const { sub, clockId } = await subscribe("2028-07-01T00:00:00Z", trial.id);
    const patch = async (body: object) =>
      fetch(`${api.url}/v1/subscriptions/${sub.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const extended = await patch({ trial_end: "2028-08-01T00:00:00Z" });
    expect(extended.status).toBe(200);
    expect(await extended.json()).toMatchObject({
      status: "trialing",
      trial_end: "2028-08-01T00:00:00.000Z",
      current_period_end: "2028-08-01T00:00:00.000Z",
    });
    // Past the first end: still in its trial, nothing charged.
    await advance(clockId, "2028-07-20T00:00:00Z");
    expect((await polar.subscriptions.get({ id: sub.id })).status).toBe("trialing");
    expect(await paymentsOf(sub.id)).toEqual([]);
    expect((await patch({ trial_end: "2028-07-10T00:00:00Z" })).status).toBe(422);
    expect((await patch({ trial_end: "now" })).status).toBe(200);
    await expect.poll(async () => (await polar.subscriptions.get({ id: sub.id })).status, poll).toBe("active");
    const active = await polar.subscriptions.get({ id: sub.id });
    expect(active.currentPeriodStart.toISOString()).toBe("2028-07-20T00:00:00.000Z");
    expect(active.currentPeriodEnd!.toISOString()).toBe("2028-08-20T00:00:00.000Z");
    expect((await paymentsOf(sub.id)).map((p) => [p.status, Number(p.amount)])).toEqual([["succeeded", 1800]]);
    // Only a trialing subscription has a trial to move.
    const refused = await patch({ trial_end: "2028-09-01T00:00:00Z" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["body", "trial_end"]);
  });

  it("ends a trial canceled during it at the trial's end, charging nothing; a declined first charge goes past_due", async () => {
    const trial = await trialProduct("Trial to cancel", 2000);
    const a = await subscribe("2028-05-01T00:00:00Z", trial.id);
    const canceled = await polar.subscriptions.update({ id: a.sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    expect(canceled.endsAt!.toISOString()).toBe("2028-05-15T00:00:00.000Z");
    await advance(a.clockId, "2028-05-20T00:00:00Z");
    const ended = await polar.subscriptions.get({ id: a.sub.id });
    expect(ended).toMatchObject({ status: "canceled" });
    expect(ended.endedAt!.toISOString()).toBe("2028-05-15T00:00:00.000Z");
    expect((await ordersOf(a.sub.id)).map((o) => o.billing_reason)).toEqual(["subscription_create"]);
    expect(await paymentsOf(a.sub.id)).toEqual([]);

    const b = await subscribe("2028-05-01T00:00:00Z", trial.id);
    await api.knex("payment_methods").where({ customer_id: b.customerId }).update({ processor_ref: "pm_sandbox_4000000000009995_nofunds" });
    await advance(b.clockId, "2028-05-16T00:00:00Z");
    expect((await polar.subscriptions.get({ id: b.sub.id })).status).toBe("past_due");
    expect((await paymentsOf(b.sub.id)).map((p) => [p.status, Number(p.amount)])).toEqual([["failed", 2000]]);
  });

  it("moves customers only to public products, the merchant also to private ones, nobody to a draft", async () => {
    const c49 = api.client049(token);
    const privatePlan = await c49.products.create({
      name: "Partner plan",
      recurringInterval: "month",
      visibility: "private",
      prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "usd" }],
    });
    const draftPlan = await c49.products.create({
      name: "Draft plan",
      recurringInterval: "month",
      visibility: "draft",
      prices: [{ amountType: "fixed", priceAmount: 800, priceCurrency: "usd" }],
    });
    const { sub, session } = await subscribe("2028-06-01T00:00:00Z");
    const portal = anon().customerPortal.subscriptions;
    for (const id of [privatePlan.id, draftPlan.id]) {
      const err = await rejects(portal.update(session, { id: sub.id, customerSubscriptionUpdate: { productId: id } }), HTTPValidationError);
      expect(err.detail?.map((d) => d.loc)).toEqual([["body", "product_id"]]);
    }
    const drafted = await rejects(
      polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: draftPlan.id } }),
      HTTPValidationError,
    );
    expect(JSON.stringify(drafted.detail)).toContain("draft");
    expect(await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: privatePlan.id } })).toMatchObject({
      productId: privatePlan.id,
      amount: 800,
    });
  });

  it("cancels at period end, uncancels, cancels again and ends at the period end, revoking the benefits", async () => {
    const { sub, clockId } = await subscribe("2028-05-10T09:00:00Z");
    const canceled = await polar.subscriptions.update({
      id: sub.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true, customerCancellationReason: "too_expensive", customerCancellationComment: "pricey" },
    });
    expect(canceled).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      customerCancellationReason: "too_expensive",
      customerCancellationComment: "pricey",
    });
    expect(canceled.canceledAt!.toISOString()).toBe("2028-05-10T09:00:00.000Z");
    expect(canceled.endsAt!.toISOString()).toBe("2028-06-10T09:00:00.000Z");
    await rejects(polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }), AlreadyCanceledSubscription);

    const back = await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: false } });
    expect(back).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null, endsAt: null, customerCancellationReason: null });
    let types = await outboxTypes(api.knex, orgId);
    expect(types).toContain("subscription.canceled");
    expect(types).toContain("subscription.uncanceled");

    await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await advance(clockId, "2028-06-15T00:00:00Z");
    const ended = await polar.subscriptions.get({ id: sub.id });
    expect(ended).toMatchObject({ status: "canceled", cancelAtPeriodEnd: true });
    expect(ended.endedAt!.toISOString()).toBe("2028-06-10T09:00:00.000Z");
    expect((await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle")).toHaveLength(0);
    await expect.poll(async () => (await grantsOf(sub.id)).every((g) => g.revoked_at !== null), poll).toBe(true);
    types = await outboxTypes(api.knex, orgId);
    expect(types).toContain("subscription.revoked");
    await rejects(
      polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: false } }),
      AlreadyCanceledSubscription,
    );
    await rejects(polar.subscriptions.revoke({ id: sub.id }), AlreadyCanceledSubscription);
  });

  it("revokes now (DELETE, and PATCH revoke=true): ended at the clock's now, benefits revoked", async () => {
    const a = await subscribe("2028-02-01T00:00:00Z");
    const revoked = await polar.subscriptions.revoke({ id: a.sub.id });
    expect(revoked).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false });
    expect(revoked.endedAt!.toISOString()).toBe("2028-02-01T00:00:00.000Z");
    await expect.poll(async () => (await grantsOf(a.sub.id)).every((g) => g.revoked_at !== null), poll).toBe(true);
    expect(await api.knex("events").where({ customer_id: a.customerId, name: "subscription.revoked" })).toHaveLength(1);

    const b = await subscribe("2028-02-01T00:00:00Z");
    const viaPatch = await polar.subscriptions.update({
      id: b.sub.id,
      subscriptionUpdate: { revoke: true, customerCancellationReason: "unused" },
    });
    expect(viaPatch).toMatchObject({ status: "canceled", customerCancellationReason: "unused" });
    await rejects(polar.subscriptions.update({ id: b.sub.id, subscriptionUpdate: { revoke: true } }), AlreadyCanceledSubscription);
  });

  it("fails a renewal (past_due), then recovers at once when the customer adds a card in the portal", async () => {
    const { sub, clockId, customerId, session } = await subscribe("2028-07-01T12:00:00Z");
    // The saved card starts declining (as a card that expired would).
    await api.knex("payment_methods").where({ customer_id: customerId }).update({ processor_ref: "pm_sandbox_4000000000000002_expired" });
    await advance(clockId, "2028-08-01T13:00:00Z");
    expect((await polar.subscriptions.get({ id: sub.id })).status).toBe("past_due");
    const [owed] = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    expect(owed.status).toBe("pending");
    const portalOrder = await anon().customerPortal.orders.get(session, { id: owed.id });
    // Declined at the period end (the clock moved past it): retried two days after that.
    expect(portalOrder.nextPaymentAttemptAt!.toISOString()).toBe("2028-08-03T12:00:00.000Z");

    await anon().customerPortal.customers.addPaymentMethod(session, {
      confirmationTokenId: "tok_sandbox_success",
      setDefault: true,
      returnUrl: "https://example.com/back",
    });
    await expect.poll(async () => (await polar.subscriptions.get({ id: sub.id })).status, poll).toBe("active");
    const paid = await polar.orders.get({ id: owed.id });
    expect(paid.status).toBe("paid");
    const tries = await api.knex("payments").where({ order_id: owed.id }).orderBy("created_at");
    expect(tries.map((p) => p.status)).toEqual(["failed", "succeeded"]);
    expect(await outboxTypes(api.knex, orgId)).toContain("subscription.active");
  });

  it("runs dunning out on its clock: canceled after the last retry, benefits revoked", async () => {
    const { sub, clockId, customerId } = await subscribe("2028-07-01T12:00:00Z");
    await api.knex("payment_methods").where({ customer_id: customerId }).update({ processor_ref: "pm_sandbox_4000000000009995_nofunds" });
    await advance(clockId, "2028-08-01T13:00:00Z");
    for (const day of ["2028-08-03T13:00:00Z", "2028-08-08T13:00:00Z", "2028-08-15T13:00:00Z"]) {
      await advance(clockId, day);
      expect((await polar.subscriptions.get({ id: sub.id })).status).toBe("past_due");
    }
    await advance(clockId, "2028-08-22T13:00:00Z");
    const ended = await polar.subscriptions.get({ id: sub.id });
    expect(ended.status).toBe("canceled");
    // The last retry (period end + 2 + 5 + 7 + 7 days) ended it, at its own time.
    expect(ended.endedAt!.toISOString()).toBe("2028-08-22T12:00:00.000Z");
    const [owed] = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    const tries = await api.knex("payments").where({ order_id: owed.id });
    expect(tries).toHaveLength(5);
    expect(tries.every((p) => p.status === "failed" && p.decline_reason === "insufficient_funds")).toBe(true);
    await expect.poll(async () => (await grantsOf(sub.id)).every((g) => g.revoked_at !== null), poll).toBe(true);
  });

  it("changes product with proration_behavior invoice: an immediate subscription_update order for the difference", async () => {
    const { sub, clockId } = await subscribe("2028-01-01T00:00:00Z"); // 31-day period
    await advance(clockId, "2028-01-16T12:00:00Z"); // exactly half of it left
    const changed = await polar.subscriptions.update({
      id: sub.id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: "invoice" },
    });
    expect(changed).toMatchObject({ productId: pro.id, amount: 3000 });
    expect(changed.prices.map((p) => p.id)).toEqual([pro.priceId]);
    // While the invoice is being charged, other changes wait.
    const update = (await ordersOf(sub.id)).find((o) => o.billing_reason === "subscription_update")!;
    expect(Number(update.subtotal_amount)).toBe(1500 - 500);
    const items = await api.knex("order_items").where({ order_id: update.id }).orderBy("position");
    expect(items.map((i) => [Number(i.amount), i.proration])).toEqual([
      [-500, true],
      [1500, true],
    ]);
    await expect.poll(async () => (await polar.orders.get({ id: update.id })).status, poll).toBe("paid");
    await expect.poll(async () => (await api.knex("subscriptions").where({ id: sub.id }).first()).pending_order_id, poll).toBeNull();
    // The new plan renews at its full price; the old product's benefit went, the system event was written.
    await advance(clockId, "2028-02-02T00:00:00Z");
    const cycle = (await ordersOf(sub.id)).find((o) => o.billing_reason === "subscription_cycle")!;
    expect(Number(cycle.subtotal_amount)).toBe(3000);
    await expect.poll(async () => (await grantsOf(sub.id)).every((g) => g.revoked_at !== null), poll).toBe(true);
    const [event] = await api
      .knex("events")
      .where({ name: "subscription.product_updated" })
      .whereRaw("metadata->>'subscription_id' = ?", [sub.id]);
    expect(event.metadata).toEqual({ subscription_id: sub.id, old_product_id: basic.id, new_product_id: pro.id });
  });

  it("changes product with proration_behavior prorate: the difference joins the next renewal", async () => {
    const { sub, clockId } = await subscribe("2028-01-01T00:00:00Z");
    await advance(clockId, "2028-01-16T12:00:00Z");
    await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: pro.id, prorationBehavior: "prorate" } });
    expect((await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_update")).toHaveLength(0);
    await advance(clockId, "2028-02-02T00:00:00Z");
    const cycle = (await ordersOf(sub.id)).find((o) => o.billing_reason === "subscription_cycle")!;
    expect(Number(cycle.subtotal_amount)).toBe(3000 - 500 + 1500);
    const items = await api.knex("order_items").where({ order_id: cycle.id }).orderBy("position");
    expect(items.map((i) => [i.label, Number(i.amount), i.proration])).toEqual([
      ["Pro monthly", 3000, false],
      ["Unused time on Basic monthly", -500, true],
      ["Remaining time on Pro monthly", 1500, true],
    ]);
    expect(cycle.status).toBe("paid");
  });

  it("applies discounts by duration: forever on every renewal, repeating for its months, once only on the first order", async () => {
    const forever = await createDiscount(api.knex, orgId, { name: "Ten forever", duration: "forever", basis_points: 1000 });
    const twoMonths = await createDiscount(api.knex, orgId, {
      name: "Half for two",
      duration: "repeating",
      duration_in_months: 2,
      basis_points: 5000,
    });
    const once = await createDiscount(api.knex, orgId, {
      name: "Once",
      duration: "once",
      type: "fixed",
      amount: 300,
      currency: "usd",
      basis_points: null,
    });
    const cases: [string, number[]][] = [
      [forever.id, [100, 100, 100]],
      [twoMonths.id, [500, 0, 0]],
      [once.id, [0, 0, 0]],
    ];
    for (const [discountId, expected] of cases) {
      const { sub, clockId } = await subscribe("2028-01-10T00:00:00Z", basic.id, { discountId });
      expect(sub.discountId).toBe(discountId);
      const [first] = await ordersOf(sub.id);
      expect(Number(first.discount_amount)).toBeGreaterThan(0);
      await advance(clockId, "2028-04-11T00:00:00Z");
      const cycles = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
      expect(
        cycles.map((o) => Number(o.discount_amount)),
        discountId,
      ).toEqual(expected);
    }
    // A discount changed by the merchant applies from the next renewal.
    const { sub, clockId } = await subscribe("2028-01-10T00:00:00Z");
    const withDiscount = await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { discountId: forever.id } });
    expect(withDiscount.discount).toMatchObject({ id: forever.id });
    await advance(clockId, "2028-02-11T00:00:00Z");
    expect((await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle").map((o) => Number(o.discount_amount))).toEqual(
      [100],
    );
    const cleared = await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { discountId: null } });
    expect(cleared.discountId).toBeNull();
    await rejects(polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { discountId: randomUUID() } }), HTTPValidationError);
  });

  it("answers SubscriptionLocked while a charge is in flight, 404 for another organization's subscription, 422 for bad bodies", async () => {
    const { sub } = await subscribe("2028-03-01T00:00:00Z");
    const [order] = await ordersOf(sub.id);
    // Else its first step could find the paid order "in flight" and clear it.
    await parked(sub.id);
    await api.knex("subscriptions").where({ id: sub.id }).update({ pending_order_id: order.id });
    await rejects(polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }), SubscriptionLocked);
    await rejects(polar.subscriptions.revoke({ id: sub.id }), SubscriptionLocked);
    await api.knex("subscriptions").where({ id: sub.id }).update({ pending_order_id: null });

    const other = api.client((await orgWithToken(api.knex)).token);
    await rejects(other.subscriptions.get({ id: sub.id }), ResourceNotFound);
    await rejects(other.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }), ResourceNotFound);
    await rejects(other.subscriptions.revoke({ id: sub.id }), ResourceNotFound);
    expect((await other.subscriptions.list({})).result.items).toHaveLength(0);
    await rejects(polar.subscriptions.get({ id: randomUUID() }), ResourceNotFound);

    const raw = (body: unknown) =>
      fetch(`${api.url}/v1/subscriptions/${sub.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const body of [
      { revoke: false },
      { product_id: randomUUID() },
      { product_id: sub.productId },
      {},
      { cancel_at_period_end: "soon" },
    ]) {
      const res = await raw(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { detail: unknown[] }).detail.length).toBeGreaterThan(0);
    }
    const oneTime = await polar.products.create({
      name: "One-time",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 100, priceCurrency: "usd" }],
    });
    expect((await raw({ product_id: oneTime.id })).status).toBe(422);
    // Nothing was changed by the refused calls.
    expect(await polar.subscriptions.get({ id: sub.id })).toMatchObject({
      status: "active",
      productId: basic.id,
      cancelAtPeriodEnd: false,
    });
  });

  it("takes 0.49.0's filters: status, cancellation at period end, its reason and time", async () => {
    const k = api.knex;
    const made = await orgWithToken(k);
    const at = (iso: string) => new Date(iso);
    const sub = async (overrides: Record<string, unknown>) =>
      (await createSubscriptionFixture(k, { startedAt: at("2028-01-01T00:00:00Z"), organizationId: made.org.id, overrides })).subscription
        .id;
    const running = await sub({ status: "active" });
    const leaving = await sub({
      status: "active",
      cancel_at_period_end: true,
      canceled_at: at("2028-02-01T00:00:00Z"),
      customer_cancellation_reason: "too_expensive",
    });
    const gone = await sub({
      status: "canceled",
      canceled_at: at("2028-03-01T00:00:00Z"),
      ended_at: at("2028-03-01T00:00:00Z"),
      customer_cancellation_reason: "unused",
    });
    const late = await sub({ status: "past_due" });
    const newer = api.client049(made.token);
    const of = async (req: Parameters<typeof newer.subscriptions.list>[0]) =>
      (await newer.subscriptions.list(Object.assign({ limit: 100 }, req))).result.items.map((s) => s.id).sort();
    const sorted = (...xs: string[]) => xs.sort();
    expect(await of({ status: "active" })).toEqual(sorted(running, leaving));
    expect(await of({ status: ["canceled", "past_due"] })).toEqual(sorted(gone, late));
    expect(await of({ cancelAtPeriodEnd: true })).toEqual([leaving]);
    expect(await of({ cancelAtPeriodEnd: false })).toEqual(sorted(running, gone, late));
    expect(await of({ customerCancellationReason: "unused" })).toEqual([gone]);
    expect(await of({ customerCancellationReason: ["unused", "too_expensive"] })).toEqual(sorted(leaving, gone));
    // Both bounds included.
    expect(await of({ canceledAtAfter: at("2028-02-01T00:00:00Z") })).toEqual(sorted(leaving, gone));
    expect(await of({ canceledAtBefore: at("2028-02-01T00:00:00Z") })).toEqual([leaving]);
    expect(await of({ canceledAtAfter: at("2028-02-01T00:00:01Z"), canceledAtBefore: at("2028-03-01T00:00:00Z") })).toEqual([gone]);
    expect(await of({ status: "active", cancelAtPeriodEnd: false })).toEqual([running]);
  });

  it("lists with every filter, sort key and paging, and exports CSV", async () => {
    const made = await orgWithToken(api.knex);
    const own = api.client(made.token);
    const saved = { polar, token, basic, pro };
    polar = own;
    token = made.token;
    try {
      basic = await product("Basic monthly", 1000);
      pro = await product("Pro monthly", 3000);
      const discount = await createDiscount(api.knex, made.org.id, { name: "Ten", duration: "forever" });
      const a = await subscribe("2028-01-01T00:00:00Z", basic.id, { externalId: "ext-a", metadata: { tier: "a" } });
      const b = await subscribe("2028-01-02T00:00:00Z", pro.id, { discountId: discount.id, metadata: { tier: "b" } });
      const c = await subscribe("2028-01-03T00:00:00Z", basic.id, { metadata: { tier: "b" } });
      await own.subscriptions.revoke({ id: c.sub.id });
      const ids = (list: Subscription[]) => list.map((s) => s.id);
      const all = (req: Parameters<Polar["subscriptions"]["list"]>[0]) => own.subscriptions.list(req).then(collectPages);

      expect(ids(await all({}))).toEqual([c.sub.id, b.sub.id, a.sub.id]); // newest start first
      expect(ids(await all({ productId: basic.id }))).toEqual([c.sub.id, a.sub.id]);
      expect(ids(await all({ productId: [basic.id, pro.id], sorting: ["started_at"] }))).toEqual([a.sub.id, b.sub.id, c.sub.id]);
      expect(ids(await all({ customerId: b.customerId }))).toEqual([b.sub.id]);
      expect(ids(await all({ externalCustomerId: "ext-a" }))).toEqual([a.sub.id]);
      expect(ids(await all({ discountId: discount.id }))).toEqual([b.sub.id]);
      expect(ids(await all({ active: true, sorting: ["started_at"] }))).toEqual([a.sub.id, b.sub.id]);
      expect(ids(await all({ active: false }))).toEqual([c.sub.id]);
      expect(ids(await all({ metadata: { tier: "b" }, sorting: ["started_at"] }))).toEqual([b.sub.id, c.sub.id]);
      expect(ids(await all({ organizationId: made.org.id, sorting: ["-amount", "started_at"] }))).toEqual([b.sub.id, a.sub.id, c.sub.id]);
      expect(ids(await all({ sorting: ["status", "started_at"] }))).toEqual([a.sub.id, b.sub.id, c.sub.id]);
      expect(ids(await all({ sorting: ["product", "-started_at"] }))).toEqual([c.sub.id, a.sub.id, b.sub.id]);
      expect(ids(await all({ sorting: ["-current_period_end"] }))).toEqual([c.sub.id, b.sub.id, a.sub.id]);
      expect(ids(await all({ sorting: ["discount", "started_at"] }))).toEqual([a.sub.id, c.sub.id, b.sub.id]);
      const byCustomer = await all({ sorting: ["customer"] });
      expect(byCustomer.map((s) => s.customer.email)).toEqual([...byCustomer.map((s) => s.customer.email)].sort());
      // Paging: one per page across three pages.
      const pages = [];
      for await (const page of await own.subscriptions.list({ limit: 1, sorting: ["started_at"] })) pages.push(page.result);
      expect(pages.map((p) => p.items[0].id)).toEqual([a.sub.id, b.sub.id, c.sub.id]);
      expect(pages[0].pagination).toEqual({ totalCount: 3, maxPage: 3 });

      // The official client asks for JSON and gets the CSV as a string; a plain request gets the file.
      const csv: unknown = await own.subscriptions.export({ organizationId: made.org.id });
      expect(typeof csv).toBe("string");
      const file = await fetch(`${api.url}/v1/subscriptions/export?organization_id=${made.org.id}`, {
        headers: { authorization: `Bearer ${made.token}` },
      });
      expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
      const text = await file.text();
      expect(text).toBe(csv);
      const lines = text.trim().split(/\r?\n/);
      expect(lines[0]).toBe("Email,Created At,Active,Status,Product,Price,Currency,Interval,Current Period End,Cancel At Period End,ID");
      expect(lines).toHaveLength(4);
      expect(lines.find((l) => l.endsWith(c.sub.id))).toContain(",false,canceled,Basic monthly,1000,usd,month,");
      expect(lines.find((l) => l.endsWith(b.sub.id))).toContain(",true,active,Pro monthly,3000,usd,month,");
      // The 1.x client sends a time zone (UTC unless told): the datetimes are its wall time.
      const zoned = await fetch(`${api.url}/v1/subscriptions/export?organization_id=${made.org.id}&timezone=Asia/Kolkata`, {
        headers: { authorization: `Bearer ${made.token}` },
      });
      const zonedLines = (await zoned.text()).trim().split(/\r?\n/);
      expect(zonedLines[1].split(",")[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30$/);
      expect(new Date(zonedLines[1].split(",")[1]).getTime()).toBe(new Date(lines[1].split(",")[1]).getTime());
      const utc = await fetch(`${api.url}/v1/subscriptions/export?organization_id=${made.org.id}&timezone=UTC`, {
        headers: { authorization: `Bearer ${made.token}` },
      });
      expect(await utc.text()).toBe(text);
      const nowhere = await fetch(`${api.url}/v1/subscriptions/export?timezone=Nowhere/Else`, {
        headers: { authorization: `Bearer ${made.token}` },
      });
      expect(nowhere.status).toBe(422);
      expect(((await nowhere.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["query", "timezone"]);
    } finally {
      ({ polar, token, basic, pro } = saved);
    }
  });

  it("in the portal: lists and gets the customer's own, cancels and uncancels, changes plan where allowed, revokes with DELETE", async () => {
    const mine = await subscribe("2028-01-05T00:00:00Z");
    const theirs = await subscribe("2028-01-05T00:00:00Z");
    const portal = anon().customerPortal.subscriptions;
    const list = await collectPages(await portal.list(mine.session, {}));
    expect(list.map((s) => s.id)).toEqual([mine.sub.id]);
    expect(list[0].product).toMatchObject({ id: basic.id, organization: { id: orgId } });
    expect(await collectPages(await portal.list(mine.session, { active: false }))).toHaveLength(0);
    expect(await collectPages(await portal.list(mine.session, { productId: pro.id }))).toHaveLength(0);
    expect((await portal.get(mine.session, { id: mine.sub.id })).id).toBe(mine.sub.id);
    await rejects(portal.get(mine.session, { id: theirs.sub.id }), ResourceNotFound);
    await rejects(
      portal.update(mine.session, { id: theirs.sub.id, customerSubscriptionUpdate: { cancelAtPeriodEnd: true } }),
      ResourceNotFound,
    );

    const canceled = await portal.update(mine.session, {
      id: mine.sub.id,
      customerSubscriptionUpdate: { cancelAtPeriodEnd: true, cancellationReason: "missing_features", cancellationComment: "needs X" },
    });
    expect(canceled).toMatchObject({
      cancelAtPeriodEnd: true,
      customerCancellationReason: "missing_features",
      customerCancellationComment: "needs X",
    });
    await rejects(
      portal.update(mine.session, { id: mine.sub.id, customerSubscriptionUpdate: { cancelAtPeriodEnd: true } }),
      AlreadyCanceledSubscription,
    );
    expect(
      (await portal.update(mine.session, { id: mine.sub.id, customerSubscriptionUpdate: { cancelAtPeriodEnd: false } })).cancelAtPeriodEnd,
    ).toBe(false);
    // A cancel body that says nothing changes nothing.
    expect(await portal.update(mine.session, { id: mine.sub.id, customerSubscriptionUpdate: {} })).toMatchObject({
      cancelAtPeriodEnd: false,
      status: "active",
    });

    await api
      .knex("organizations")
      .where({ id: orgId })
      .update({
        subscription_settings: JSON.stringify({
          allow_multiple_subscriptions: false,
          allow_customer_updates: false,
          proration_behavior: "prorate",
        }),
      });
    const refused = await rejects(
      portal.update(mine.session, { id: mine.sub.id, customerSubscriptionUpdate: { productId: pro.id } }),
      ResponseValidationError,
    );
    expect([refused.statusCode, JSON.parse(refused.body).error]).toEqual([403, "UpdateSubscriptionPlanNotAllowed"]);
    await api
      .knex("organizations")
      .where({ id: orgId })
      .update({
        subscription_settings: JSON.stringify({
          allow_multiple_subscriptions: false,
          allow_customer_updates: true,
          proration_behavior: "prorate",
        }),
      });
    const upgraded = await portal.update(mine.session, { id: mine.sub.id, customerSubscriptionUpdate: { productId: pro.id } });
    expect(upgraded).toMatchObject({ productId: pro.id, amount: 3000 });

    const revoked = await portal.cancel(mine.session, { id: mine.sub.id });
    expect(revoked).toMatchObject({ status: "canceled" });
    await rejects(portal.cancel(mine.session, { id: mine.sub.id }), AlreadyCanceledSubscription);
  });

  it("catches up a clock whose advance's pokes were lost: the worker's sweep pokes what is due by its clock", async () => {
    const { sub, clockId } = await subscribe("2029-01-15T10:00:00Z");
    const poker = temporalDoor(temporal.client, temporal.taskQueue).pokeSubscriptions;
    setWorkflowsDoor({
      pokeSubscriptions: async () => {
        throw new Error("Temporal unreachable");
      },
    });
    try {
      expect((await clockCall("POST", `${clockId}/advance`, { frozen_time: "2029-02-20T00:00:00Z" })).status).toBe(200);
      // The workflow was never told (its timer waits for the real date): the subscription is due by
      // its clock, for a sweep to find. (Another suite's worker sweeping meanwhile may catch it up
      // first: that is the same mechanism, so only the due list is checked here.)
      expect(await subscriptionsDueOnClocks(api.knex)).toContain(sub.id);
    } finally {
      setWorkflowsDoor({ pokeSubscriptions: poker });
    }
    // The sweep's pass (only this test's subscription: other files' run on their own task queues).
    await pokeDueOnClocks(api.knex, { pokeSubscriptions: (ids) => poker(ids.filter((id) => id === sub.id)) });
    await expect.poll(async () => (await clockCall("GET", clockId)).json.status, poll).toBe("ready");
    const cycles = (await ordersOf(sub.id)).filter((o) => o.billing_reason === "subscription_cycle");
    expect(cycles.map((o) => [new Date(o.billing_period_start).toISOString(), o.status])).toEqual([["2029-02-15T10:00:00.000Z", "paid"]]);
    expect(await subscriptionsDueOnClocks(api.knex)).not.toContain(sub.id);
  });

  it("refuses test clocks misused: unknown, backwards, a customer that already subscribes; deletes an unused one", async () => {
    const { customerId, clockId } = await subscribe("2028-01-01T00:00:00Z");
    expect((await clockCall("GET", randomUUID())).status).toBe(404);
    expect((await clockCall("POST", `${clockId}/advance`, { frozen_time: "2027-12-31T00:00:00Z" })).status).toBe(422);
    expect((await clockCall("POST", `${clockId}/advance`, { frozen_time: "2031-01-01T00:00:00Z" })).status).toBe(422);
    const other = await clockCall("POST", "", { frozen_time: "2028-01-01T00:00:00Z" });
    expect((await clockCall("POST", `${other.json.id}/customers`, { customer_id: customerId })).status).toBe(422);
    expect((await clockCall("DELETE", clockId)).status).toBe(403);
    expect((await clockCall("DELETE", other.json.id as string)).status).toBe(204);
    expect((await clockCall("GET", other.json.id as string)).status).toBe(404);
    const listed = await clockCall("GET", "?limit=100");
    expect((listed.json.items as { id: string; customer_ids: string[] }[]).find((c) => c.id === clockId)?.customer_ids).toEqual([
      customerId,
    ]);
  });
  it("sends subscription and order webhooks whose payloads the official client decodes", async () => {
    const rows: { type: string; payload: unknown }[] = await api
      .knex("outbox")
      .where({ organization_id: orgId })
      .where((w) => w.where("type", "like", "subscription.%").orWhere("type", "like", "order.%"))
      .select("type", "payload");
    const schemas: Record<string, { parse(v: unknown): unknown }> = {
      "subscription.created": WebhookSubscriptionCreatedPayload$inboundSchema,
      "subscription.updated": WebhookSubscriptionUpdatedPayload$inboundSchema,
      "subscription.active": WebhookSubscriptionActivePayload$inboundSchema,
      "subscription.canceled": WebhookSubscriptionCanceledPayload$inboundSchema,
      "subscription.uncanceled": WebhookSubscriptionUncanceledPayload$inboundSchema,
      "subscription.revoked": WebhookSubscriptionRevokedPayload$inboundSchema,
      "order.created": WebhookOrderCreatedPayload$inboundSchema,
      "order.updated": WebhookOrderUpdatedPayload$inboundSchema,
      "order.paid": WebhookOrderPaidPayload$inboundSchema,
    };
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(Object.keys(schemas)));
    for (const row of rows) {
      const payload = typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload;
      expect(() => schemas[row.type].parse(payload), row.type).not.toThrow();
    }
    const cycled = rows
      .map(
        (r) =>
          (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as {
            type: string;
            data: { billing_reason?: string; subscription?: { id: string } | null };
          },
      )
      .find((p) => p.type === "order.paid" && p.data.billing_reason === "subscription_cycle");
    expect(cycled?.data.subscription?.id).toBeTruthy();
  });
});
