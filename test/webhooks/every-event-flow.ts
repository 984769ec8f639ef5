// Every webhook event type (27) emitted by its domain and delivered for real to a receiver on
// 127.0.0.1, by a worker of this file's own. Each delivery passes the official client's
// `validateEvent`, is compact JSON in the contract's key order, and its `data` matches the API's
// GET of the entity once its step settled (exactly for a step's last event, by id for earlier
// ones). Run by ./every-event.test.ts, and by test/integrations/ with Polar's adapters.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import type { WebhookEventType } from "@polar-sh/sdk/models/components/webhookeventtype.js";
import { validateEvent } from "@polar-sh/sdk/webhooks.js";
import { afterAll, beforeAll, expect } from "vitest";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { activityDeps, createOrganization, type WorkflowInfra } from "../harness/index.js";
import { contractOrderProblems } from "./contract-order.js";
import { useWebhookHarness, type WebhookHarness } from "./harness.js";
import { headersOf, type Received } from "./receiver.js";

const poll = { timeout: 30_000, interval: 100 };

export const ALL_TYPES: WebhookEventType[] = [
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
];

type Json = Record<string, unknown>;

interface Delivered {
  type: string;
  data: Json;
  /** Which entity the event is about, e.g. `order:<id>`; the last of a step is compared exactly. */
  key: string;
}

/** A copy without `modified_at` on nested objects (not the top level) whose id is in `ids`. */
function withoutNestedModifiedAt(value: Json, ids: Set<string>, top = true): Json {
  const walk = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(walk) : v && typeof v === "object" ? withoutNestedModifiedAt(v as Json, ids, false) : v;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (!top && k === "modified_at" && ids.has(String(value.id))) continue;
    out[k] = walk(v);
  }
  return out;
}

/**
 * The webhook harness with what the flow needs on its worker: the subscription lifecycle and the
 * benefit grant jobs the API starts. Registers beforeAll/afterAll.
 */
export function useEveryEventHarness(infra: WorkflowInfra): WebhookHarness {
  const h = useWebhookHarness(infra, {
    workflow: { idleMs: 2_000 },
    activities: (knex) => {
      const deps = activityDeps(knex);
      return { ...createSubscriptionActivities(deps), ...createBenefitGrantActivities(deps) };
    },
  });
  beforeAll(() => {
    const door = temporalDoor(h.client, h.taskQueue);
    setWorkflowsDoor({ pokeSubscriptions: door.pokeSubscriptions, startBenefitGrantJobs: door.startBenefitGrantJobs });
  });
  afterAll(() => {
    setWorkflowsDoor(null);
  });
  return h;
}

export interface EveryEventOptions {
  /** Each delivery to the flow's receiver, after its own checks, with the endpoint's secret. */
  onDelivery?: (delivery: Received, secret: string) => Promise<void>;
}

export interface EveryEventResult {
  /** The types delivered to the receiver. */
  seen: Set<string>;
  /** The types whose data was compared field for field with the API's GET. */
  compared: Set<string>;
}

/** Runs the flow for a new merchant (see the file's head); fails on the first check that does not hold. */
export async function runEveryEvent(infra: WorkflowInfra, h: WebhookHarness, opts: EveryEventOptions = {}): Promise<EveryEventResult> {
  const receiver = h.receiver;
  const org = await createOrganization(infra.knex);
  const token = await mintOrganizationToken(infra.knex, org.id);
  const polar = new Polar({ accessToken: token, serverURL: h.api.url });
  const anon = new Polar({ serverURL: h.api.url });
  const path = `/all-${randomUUID().slice(0, 8)}`;
  const ep = await polar.webhooks.createWebhookEndpoint({ url: `${receiver.url}${path}`, format: "raw", events: ALL_TYPES });

  async function call(method: string, url: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${h.api.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
    return text ? (JSON.parse(text) as Json) : {};
  }
  const get = (url: string) => call("GET", url);

  /** Nothing left in flight: outbox relayed, grant jobs done, every event delivered. */
  async function settled(): Promise<boolean> {
    const [{ n: outbox }] = await infra.knex("outbox").where({ organization_id: org.id }).whereNull("published_at").count({ n: "*" });
    const [{ n: jobs }] = await infra
      .knex("benefit_grant_jobs")
      .join("benefit_grants", "benefit_grants.id", "benefit_grant_jobs.grant_id")
      .join("customers", "customers.id", "benefit_grants.customer_id")
      .where("customers.organization_id", org.id)
      .whereNull("benefit_grant_jobs.done_at")
      .count({ n: "*" });
    const [{ n: queued }] = await infra.knex("webhook_events").where({ endpoint_id: ep.id, pending: true }).count({ n: "*" });
    return Number(outbox) + Number(jobs) + Number(queued) === 0;
  }

  const seen = new Set<string>();
  const compared = new Set<string>();

  /** The GET that an event's data must equal, or null when the entity has no GET. */
  async function current(d: Delivered): Promise<Json | null> {
    const id = d.data.id as string;
    const [kind] = d.type.split(".");
    switch (d.type === "customer.state_changed" ? "customer_state" : kind) {
      case "checkout":
        return get(`/v1/checkouts/${id}`);
      case "customer":
        return get(`/v1/customers/${id}`);
      case "customer_state":
        return get(`/v1/customers/${id}/state`);
      case "order":
        return get(`/v1/orders/${id}`);
      case "subscription":
        return get(`/v1/subscriptions/${id}`);
      case "refund":
        return ((await get(`/v1/refunds/?id=${id}`)).items as Json[])[0];
      case "product":
        return get(`/v1/products/${id}`);
      case "benefit":
        return get(`/v1/benefits/${id}`);
      case "organization":
        return get(`/v1/organizations/${id}`);
      case "benefit_grant": {
        // No GET of one grant: the benefit's grant list, plus the benefit and the change's previous properties.
        const benefitId = d.data.benefit_id as string;
        const grant = ((await get(`/v1/benefits/${benefitId}/grants?limit=100`)).items as Json[]).find((g) => g.id === id);
        return grant
          ? { ...grant, benefit: await get(`/v1/benefits/${benefitId}`), previous_properties: d.data.previous_properties }
          : null;
      }
      default:
        throw new Error(`no GET known for ${d.type}`);
    }
  }

  /**
   * Runs one step, waits until what it set off has settled and its expected types were
   * delivered, verifies each new delivery and compares the last event of each entity with its GET.
   * `compare` overrides the GET for a type (customer.deleted: there is no GET after deletion).
   */
  async function step(
    name: string,
    expected: WebhookEventType[],
    run: () => Promise<void>,
    compare: Partial<Record<string, (data: Json) => Json>> = {},
  ) {
    const before = receiver.at(path).length;
    await run();
    const fresh = () => receiver.at(path).slice(before);
    await expect
      .poll(
        async () => {
          const types = new Set(fresh().map((r) => JSON.parse(r.body).type as string));
          return expected.every((t) => types.has(t)) && (await settled());
        },
        { ...poll, message: `${name}: expected ${expected.join(", ")}` },
      )
      .toBe(true);
    const hits: Received[] = fresh();
    const delivered: Delivered[] = [];
    for (const r of hits) {
      const event = validateEvent(r.body, headersOf(r), ep.secret);
      const raw = JSON.parse(r.body) as { type: string; data: Json; timestamp: string };
      // The signed bytes are Polar's: compact, keys in the contract's order, so a receiver that
      // re-serialises the parsed body (@polar-sh/express) verifies the same bytes.
      expect(contractOrderProblems(raw.type, raw), `${name}: ${raw.type} key order`).toEqual([]);
      expect(JSON.stringify(raw)).toBe(r.body);
      expect(event.type).toBe(raw.type);
      expect(Object.keys(raw).sort()).toEqual(["data", "timestamp", "type"]);
      await opts.onDelivery?.(r, ep.secret);
      const kind = raw.type === "customer.state_changed" ? "customer_state" : raw.type.split(".")[0];
      delivered.push({ type: raw.type, data: raw.data, key: `${kind}:${String(raw.data.id)}` });
    }
    const lastOf = new Map(delivered.map((d, i) => [d.key, i]));
    for (const [i, d] of delivered.entries()) {
      seen.add(d.type);
      if (lastOf.get(d.key) !== i) {
        expect(d.data.id, `${name}: ${d.type}`).toEqual(expect.any(String));
        continue;
      }
      const want = compare[d.type]?.(d.data) ?? (await current(d));
      expect(want, `${name}: ${d.type} has a GET`).not.toBeNull();
      // An entity nested in this one (the order's subscription) that has an event later in this
      // step was written again after this event: only its modified_at may differ, nothing else.
      const laterIds = new Set(delivered.slice(i + 1).map((later) => String(later.data.id)));
      expect(withoutNestedModifiedAt(d.data, laterIds), `${name}: ${d.type} data vs GET`).toEqual(withoutNestedModifiedAt(want!, laterIds));
      compared.add(d.type);
    }
  }

  await step("organization", ["organization.updated"], async () => {
    await polar.organizations.update({ id: org.id, organizationUpdate: { name: "Every Event Co" } });
  });

  let benefitId = "";
  await step("benefit", ["benefit.created"], async () => {
    benefitId = (await polar.benefits.create({ type: "custom", description: "Priority support", properties: { note: "Mail us" } })).id;
  });

  let productId = "";
  await step("product", ["product.created"], async () => {
    productId = (
      await polar.products.create({
        name: "Pro monthly",
        recurringInterval: "month",
        prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }],
      })
    ).id;
  });
  await step("product benefits", ["product.updated"], async () => {
    await polar.products.updateBenefits({ id: productId, productBenefitsUpdate: { benefits: [benefitId] } });
  });

  let customerId = "";
  await step("customer", ["customer.created"], async () => {
    customerId = (await polar.customers.create({ email: `every-${randomUUID().slice(0, 8)}@example.com`, name: "Buyer" })).id;
  });
  await step("customer update", ["customer.updated"], async () => {
    await polar.customers.update({ id: customerId, customerUpdate: { name: "Buyer Two" } });
  });

  // The customer's test clock: the renewal below happens when the clock is advanced.
  const clock = await call("POST", "/v1/test-clocks/", { name: "every-event", frozen_time: "2028-03-10T12:00:00Z" });
  await call("POST", `/v1/test-clocks/${String(clock.id)}/customers`, { customer_id: customerId });

  let subscriptionId = "";
  let clientSecret = "";
  await step("checkout", ["checkout.created"], async () => {
    clientSecret = (await polar.checkouts.create({ products: [productId], customerId })).clientSecret;
  });
  await step(
    "checkout confirm",
    [
      "checkout.updated",
      "order.created",
      "order.paid",
      "subscription.created",
      "subscription.active",
      "benefit_grant.created",
      "customer.state_changed",
    ],
    async () => {
      await anon.checkouts.clientConfirm({
        clientSecret,
        checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
      });
      subscriptionId = (await polar.subscriptions.list({ customerId })).result.items[0].id;
    },
  );

  await step("benefit update", ["benefit.updated", "benefit_grant.updated"], async () => {
    await polar.benefits.update({
      id: benefitId,
      requestBody: { type: "custom", description: "Priority support, 24/7", properties: { note: "Call us" } },
    });
  });

  await step("renewal", ["subscription.updated", "order.created", "benefit_grant.cycled"], async () => {
    await call("POST", `/v1/test-clocks/${String(clock.id)}/advance`, { frozen_time: "2028-04-10T13:00:00Z" });
    await expect.poll(async () => (await get(`/v1/test-clocks/${String(clock.id)}`)).status, poll).toBe("ready");
  });

  await step("cancel", ["subscription.canceled"], async () => {
    await polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
  });
  await step("uncancel", ["subscription.uncanceled"], async () => {
    await polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: false } });
  });

  await step("refund", ["refund.created", "refund.updated", "order.refunded", "order.updated"], async () => {
    const [first] = (await polar.orders.list({ customerId, sorting: ["created_at"] })).result.items;
    await polar.refunds.create({
      orderId: first.id,
      reason: "customer_request",
      amount: first.totalAmount - first.refundedAmount - first.taxAmount,
    });
  });

  await step("revoke", ["subscription.revoked", "benefit_grant.revoked"], async () => {
    await polar.subscriptions.revoke({ id: subscriptionId });
  });

  // The customer as read just before, stamped deleted (and so modified) at the deletion.
  const beforeDelete = await get(`/v1/customers/${customerId}`);
  const deletedFrom = Date.now();
  await step(
    "customer deletion",
    ["customer.deleted"],
    async () => {
      await polar.customers.delete({ id: customerId });
    },
    {
      "customer.deleted": (data) => {
        expect(Date.parse(String(data.deleted_at))).toBeGreaterThanOrEqual(deletedFrom - 1_000);
        return { ...beforeDelete, deleted_at: data.deleted_at, modified_at: data.deleted_at };
      },
    },
  );
  await expect(polar.customers.get({ id: customerId })).rejects.toThrow();
  return { seen, compared };
}
