// Orders through the official client: the wire shape (customer, product, discount, items),
// every filter and sort key, paging, billing details updates, tenant isolation, and the service
// functions the checkout confirm flow calls (createOrderForCheckout, markOrderPaid) with their events;
// the Borealis extension filters of the merchant list (status, created range, customer email).
import { invalid } from "../harness/index.js";
import type { OrderSortProperty } from "@polar-sh/sdk/models/components/ordersortproperty.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Order } from "@polar-sh/sdk/models/components/order.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import {
  collectPages,
  createCustomer,
  createCustomerSessionToken,
  createDiscount,
  createOrder,
  createProductWithPrice,
  createSubscriptionFixture,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";
import { createOrderForCheckout, listCustomerOrders, markOrderPaid } from "../../server/orders/service.js";
import { orderDependents } from "../../server/subscriptions/repository.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["orders"]["list"]>[0]): Promise<Order[]> {
  return collectPages(await polar.orders.list(req));
}

describe("orders", () => {
  let polar: Polar;
  let orgId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    const k = api.knex;
    const alice = await createCustomer(k, orgId, { email: "alice@example.com", name: "Alice" });
    const bob = await createCustomer(k, orgId, { email: "bob@example.com", name: "Bob" });
    const book = await createProductWithPrice(k, orgId, { name: "Book" }, { amount: 1000 });
    const plan = await createProductWithPrice(k, orgId, { name: "Plan", recurring_interval: "month" }, { amount: 3000 });
    const discount = await createDiscount(k, orgId, { name: "Launch", code: "LAUNCH" });
    Object.assign(ids, { alice: alice.id, bob: bob.id, book: book.product.id, plan: plan.product.id, discount: discount.id });
    const t0 = Date.now() - 60_000;
    ids.o1 = (
      await createOrder(
        k,
        orgId,
        { customerId: alice.id, productId: book.product.id, productPriceId: book.price.id },
        {
          subtotal_amount: 1000,
          status: "paid",
          created_at: new Date(t0),
          metadata: { channel: "web" },
          invoice_number: "SORT-0002",
        },
      )
    ).id;
    ids.o2 = (
      await createOrder(
        k,
        orgId,
        { customerId: bob.id, productId: plan.product.id, productPriceId: plan.price.id },
        {
          subtotal_amount: 3000,
          discount_amount: 300,
          tax_amount: 540,
          discount_id: discount.id,
          status: "refunded",
          billing_reason: "subscription_create",
          created_at: new Date(t0 + 1000),
          metadata: { channel: "api" },
          invoice_number: "SORT-0001",
          checkout_id: "00000000-0000-4000-8000-000000000001",
        },
      )
    ).id;
    ids.o3 = (
      await createOrder(
        k,
        orgId,
        { customerId: alice.id, productId: plan.product.id },
        {
          subtotal_amount: 500,
          status: "pending",
          created_at: new Date(t0 + 2000),
          billing_name: null,
          billing_address: null,
          invoice_number: "SORT-0010",
          items: [
            { label: "Plan", amount: 300 },
            { label: "Seats", amount: 200, tax_amount: 10 },
          ],
        },
      )
    ).id;
    // Another organization's order never shows.
    const other = await orgWithToken(k);
    const oc = await createCustomer(k, other.org.id);
    const op = await createProductWithPrice(k, other.org.id);
    ids.foreign = (await createOrder(k, other.org.id, { customerId: oc.id, productId: op.product.id })).id;
  });

  it("gets an order with its customer, product, discount and items", async () => {
    const o = await polar.orders.get({ id: ids.o2 });
    expect(o).toMatchObject({
      id: ids.o2,
      status: "refunded",
      paid: true,
      subtotalAmount: 3000,
      discountAmount: 300,
      netAmount: 2700,
      taxAmount: 540,
      totalAmount: 3240,
      currency: "usd",
      billingReason: "subscription_create",
      billingName: "Jane Buyer",
      customerId: ids.bob,
      userId: ids.bob,
      productId: ids.plan,
      discountId: ids.discount,
      subscription: null,
      subscriptionId: null,
      isInvoiceGenerated: false,
    });
    expect(o.customer.email).toBe("bob@example.com");
    expect(o.product).toMatchObject({ id: ids.plan, name: "Plan", isRecurring: true });
    expect(o.discount).toMatchObject({ id: ids.discount, name: "Launch" });
    expect(o.billingAddress?.country).toBe("US");
    expect(o.items).toHaveLength(1);
    const o3 = await polar.orders.get({ id: ids.o3 });
    expect(o3.paid).toBe(false);
    expect(o3.items.map((i) => [i.label, i.amount, i.taxAmount])).toEqual([
      ["Plan", 300, 0],
      ["Seats", 200, 10],
    ]);
    expect(o3.discount).toBeNull();
  });

  it("answers 404 for an unknown, malformed or foreign id", async () => {
    await rejects(polar.orders.get({ id: ids.foreign }), ResourceNotFound);
    await rejects(polar.orders.get({ id: "00000000-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.orders.get({ id: "nope" }), ResourceNotFound);
  });

  it("lists with every filter", async () => {
    const idsOf = (os: Order[]) => os.map((o) => o.id).sort();
    const sorted = (...xs: string[]) => xs.sort();
    expect(idsOf(await collect(polar, {}))).toEqual(sorted(ids.o1, ids.o2, ids.o3));
    expect(idsOf(await collect(polar, { organizationId: orgId }))).toHaveLength(3);
    expect(idsOf(await collect(polar, { productId: ids.book }))).toEqual([ids.o1]);
    expect(idsOf(await collect(polar, { productId: [ids.book, ids.plan] }))).toHaveLength(3);
    expect(idsOf(await collect(polar, { productBillingType: "recurring" }))).toEqual(sorted(ids.o2, ids.o3));
    expect(idsOf(await collect(polar, { productBillingType: "one_time" }))).toEqual([ids.o1]);
    expect(idsOf(await collect(polar, { discountId: ids.discount }))).toEqual([ids.o2]);
    expect(idsOf(await collect(polar, { customerId: ids.alice }))).toEqual(sorted(ids.o1, ids.o3));
    expect(idsOf(await collect(polar, { checkoutId: "00000000-0000-4000-8000-000000000001" }))).toEqual([ids.o2]);
    expect(idsOf(await collect(polar, { metadata: { channel: "web" } }))).toEqual([ids.o1]);
    expect(idsOf(await collect(polar, { metadata: { channel: ["web", "api"] } }))).toEqual(sorted(ids.o1, ids.o2));
  });

  it("takes 0.49.0's external customer and subscription filters", async () => {
    const k = api.knex;
    const { org, token } = await orgWithToken(k);
    const fixture = await createSubscriptionFixture(k, { startedAt: new Date(), organizationId: org.id });
    await k("customers").where({ id: fixture.customerId }).update({ external_id: "ext-sub" });
    const renewal = await createOrder(
      k,
      org.id,
      { customerId: fixture.customerId, productId: fixture.productId },
      { subscription_id: fixture.subscription.id },
    );
    const gone = await createCustomer(k, org.id, { external_id: "ext-gone" });
    await createOrder(k, org.id, { customerId: gone.id, productId: fixture.productId });
    // A deleted customer's external id matches none of its orders (it may be another's now).
    await k("customers").where({ id: gone.id }).update({ deleted_at: new Date() });
    const other = await createCustomer(k, org.id, { external_id: "ext-other" });
    const one = await createOrder(k, org.id, { customerId: other.id, productId: fixture.productId });
    const newer = api.client049(token);
    const of = async (req: Parameters<typeof newer.orders.list>[0]) => (await newer.orders.list(req)).result.items.map((o) => o.id).sort();
    expect(await of({ subscriptionId: fixture.subscription.id })).toEqual([renewal.id]);
    expect(await of({ subscriptionId: [fixture.subscription.id, "00000000-0000-4000-8000-000000000000"] })).toEqual([renewal.id]);
    expect(await of({ externalCustomerId: "ext-sub" })).toEqual([renewal.id]);
    expect(await of({ externalCustomerId: ["ext-sub", "ext-other"] })).toEqual([renewal.id, one.id].sort());
    expect(await of({ externalCustomerId: "ext-gone" })).toEqual([]);
    expect(await of({ externalCustomerId: "ext-other", subscriptionId: fixture.subscription.id })).toEqual([]);
  });

  it("sorts by every key, both ways", async () => {
    const order = async (key: OrderSortProperty) => (await collect(polar, { sorting: [key] })).map((o) => o.id);
    const { o1, o2, o3 } = ids;
    expect(await order("created_at")).toEqual([o1, o2, o3]);
    expect(await order("-created_at")).toEqual([o3, o2, o1]);
    expect(await order("status")).toEqual([o1, o3, o2]); // paid < pending < refunded
    expect(await order("-status")).toEqual([o2, o3, o1]);
    expect(await order("invoice_number")).toEqual([o2, o1, o3]);
    expect(await order("-invoice_number")).toEqual([o3, o1, o2]);
    expect(await order("amount")).toEqual([o3, o1, o2]); // totals 500, 1000, 3240
    expect(await order("-amount")).toEqual([o2, o1, o3]);
    expect(await order("net_amount")).toEqual([o3, o1, o2]);
    expect(await order("-net_amount")).toEqual([o2, o1, o3]);
    expect((await order("customer")).slice(0, 2).sort()).toEqual([o1, o3].sort()); // alice@ < bob@
    expect((await order("-customer"))[0]).toBe(o2);
    expect((await order("product"))[0]).toBe(o1); // Book < Plan
    expect((await order("-product"))[2]).toBe(o1);
    expect((await order("-discount"))[0]).toBe(o2); // nulls last descending
    expect((await order("discount"))[2]).toBe(o2);
    expect(await order("subscription")).toHaveLength(3);
    expect(await order("-subscription")).toHaveLength(3);
  });

  it("pages with limit, and the client walks every page", async () => {
    const first = await polar.orders.list({ limit: 2, page: 1 });
    expect(first.result.items).toHaveLength(2);
    expect(first.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    const second = await polar.orders.list({ limit: 2, page: 2 });
    expect(second.result.items).toHaveLength(1);
    expect((await collect(polar, { limit: 1 })).length).toBe(3);
  });

  it("updates billing details and writes order.updated; rejects a bad address", async () => {
    const updated = await polar.orders.update({
      id: ids.o3,
      orderUpdate: { billingName: "Acme Inc.", billingAddress: { country: "FR", city: "Paris" } },
    });
    expect(updated.billingName).toBe("Acme Inc.");
    expect(updated.billingAddress).toMatchObject({ country: "FR", city: "Paris", line1: null });
    expect(await outboxTypes(api.knex, orgId)).toContain("order.updated");
    await rejects(
      polar.orders.update({ id: ids.o3, orderUpdate: { billingName: "Acme Inc.", billingAddress: { country: "XX" } } }),
      HTTPValidationError,
    );
    await rejects(polar.orders.update({ id: ids.foreign, orderUpdate: { billingName: "x", billingAddress: null } }), ResourceNotFound);
  });

  it("refuses billing details changes once the invoice exists", async () => {
    await api.knex("orders").where({ id: ids.o1 }).update({ is_invoice_generated: true });
    const o1 = await polar.orders.get({ id: ids.o1 });
    // Sending the same details back is no change and succeeds.
    await polar.orders.update({ id: ids.o1, orderUpdate: { billingName: o1.billingName, billingAddress: o1.billingAddress } });
    await rejects(
      polar.orders.update({ id: ids.o1, orderUpdate: { billingName: "Late change", billingAddress: o1.billingAddress } }),
      HTTPValidationError,
    );
  });

  it("creates a pending order for a checkout and marks it paid, with events", async () => {
    const { org } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id);
    const { product, price } = await createProductWithPrice(api.knex, org.id);
    const row = await api.knex.transaction((trx) =>
      createOrderForCheckout(
        trx,
        {
          organizationId: org.id,
          customerId: customer.id,
          productId: product.id,
          productPriceId: price.id,
          checkoutId: null,
          subscriptionId: null,
          billingReason: "purchase",
          currency: "usd",
          subtotalAmount: 2500,
          discountAmount: 500,
          discountId: null,
          taxAmount: 400,
          items: [{ label: "Pro license", amount: 2500, taxAmount: 400, proration: false, productPriceId: price.id, period: null }],
          billingName: "Jane",
          billingAddress: { country: "DE", line1: null, line2: null, city: null, state: null, postal_code: null },
          metadata: { ref: "x" },
          customFieldData: {},
        },
        orderDependents,
      ),
    );
    expect(row.status).toBe("pending");
    await api.knex.transaction((trx) => markOrderPaid(trx, row.id, { reads: orderDependents }));
    await api.knex.transaction((trx) => markOrderPaid(trx, row.id, { reads: orderDependents })); // idempotent
    expect(await outboxTypes(api.knex, org.id)).toEqual(["order.created", "order.updated", "order.paid"]);
    const payload = (await api.knex("outbox").where({ organization_id: org.id, type: "order.paid" }).first()).payload;
    const event = typeof payload === "string" ? JSON.parse(payload) : payload;
    expect(event.data).toMatchObject({ id: row.id, status: "paid", paid: true, net_amount: 2000, total_amount: 2400 });
    expect(event.data.items).toHaveLength(1);
  });

  it("numbers receipts when paid and shows what is due, what is refundable, the description and the platform fee", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id);
    const { product, price } = await createProductWithPrice(api.knex, org.id, { name: "Pro" });
    const make = () =>
      api.knex.transaction((trx) =>
        createOrderForCheckout(
          trx,
          {
            organizationId: org.id,
            customerId: customer.id,
            productId: product.id,
            productPriceId: price.id,
            checkoutId: null,
            subscriptionId: null,
            billingReason: "purchase",
            currency: "usd",
            subtotalAmount: 2500,
            discountAmount: 500,
            discountId: null,
            taxAmount: 400,
            items: [{ label: "Pro license", amount: 2500, taxAmount: 400, proration: false, productPriceId: price.id, period: null }],
            billingName: "Jane",
            billingAddress: null,
            metadata: {},
            customFieldData: {},
          },
          orderDependents,
        ),
      );
    const [first, second] = [await make(), await make()];
    /** The order as the API sends it (0.49.0 also checks the product's newest fields, which are not in this test's reach). */
    const wire = async (id: string, path = `/v1/orders/${id}`, bearer = token) =>
      (await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } })).json();
    expect(await wire(first.id)).toMatchObject({
      status: "pending",
      total_amount: 2400,
      applied_balance_amount: 0,
      due_amount: 2400,
      refundable_amount: 0,
      refundable_tax_amount: 0,
      invoice_number: expect.stringMatching(/-\d{4}$/),
      receipt_number: null,
      description: "Pro",
      platform_fee_amount: 0,
      platform_fee_currency: null,
      next_payment_attempt_at: null,
    });

    // 5% and 30 cents of each paid order go to the platform; receipts are numbered in the order orders are paid.
    Object.assign(process.env, { PLATFORM_FEE_BASIS_POINTS: "500", PLATFORM_FEE_FIXED: "30" });
    try {
      for (const o of [second, first]) await api.knex.transaction((trx) => markOrderPaid(trx, o.id, { reads: orderDependents }));
    } finally {
      delete process.env.PLATFORM_FEE_BASIS_POINTS;
      delete process.env.PLATFORM_FEE_FIXED;
    }
    const prefix = `RCPT-${org.slug.toUpperCase()}`;
    expect(await wire(second.id)).toMatchObject({ receipt_number: `${prefix}-0001` });
    expect(await wire(first.id)).toMatchObject({
      status: "paid",
      due_amount: 0,
      refundable_amount: 2000,
      refundable_tax_amount: 400,
      receipt_number: `${prefix}-0002`,
      platform_fee_amount: 150,
      platform_fee_currency: "usd",
      invoice_number: expect.stringMatching(/-\d{4}$/),
    });
    // A partial refund leaves the rest refundable; 0.34.17 reads the order as before.
    await api
      .knex("orders")
      .where({ id: first.id })
      .update({ status: "partially_refunded", refunded_amount: 500, refunded_tax_amount: 100 });
    expect(await wire(first.id)).toMatchObject({ refundable_amount: 1500, refundable_tax_amount: 300, receipt_number: `${prefix}-0002` });
    expect(await api.client(token).orders.get({ id: first.id })).toMatchObject({
      id: first.id,
      status: "partially_refunded",
      refundedAmount: 500,
    });
    // The customer sees the same numbers in the portal.
    const session = await createCustomerSessionToken(api.knex, customer.id);
    expect(await wire(first.id, `/v1/customer-portal/orders/${first.id}`, session)).toMatchObject({
      receipt_number: `${prefix}-0002`,
      due_amount: 0,
      refundable_amount: 1500,
      refundable_tax_amount: 300,
      description: "Pro",
      applied_balance_amount: 0,
    });
  });
});

describe("orders: the Borealis extension filters (status, created_after/before, customer_email)", () => {
  let token: string;
  let otherToken: string;
  const ids: Record<string, string> = {};
  let carolOrg: string;
  let carolId: string;
  const t0 = Date.parse("2025-06-01T00:00:00Z");
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);

  /** GET /v1/orders/ with a raw query string (the official client has no such parameters). */
  async function list(
    query: string,
    bearer = token,
  ): Promise<{ status: number; body: { items?: { id: string }[]; detail?: { loc: unknown[]; msg: string; type: string }[] } }> {
    const res = await fetch(`${api.url}/v1/orders/?${/(^|&)limit=/.test(query) ? "" : "limit=100&"}${query}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return { status: res.status, body: await res.json() };
  }
  async function listIds(query: string, bearer = token): Promise<string[]> {
    const res = await list(query, bearer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items!.map((o) => o.id).sort();
  }
  const sorted = (...names: string[]) => names.map((n) => ids[n]).sort();

  beforeAll(async () => {
    const k = api.knex;
    const mine = await orgWithToken(k);
    token = mine.token;
    const org = mine.org.id;
    const carol = await createCustomer(k, org, { email: "Carol.Smith@Example.com" });
    const dave = await createCustomer(k, org, { email: "dave@other.test" });
    const under = await createCustomer(k, org, { email: "a_b%c@example.com" });
    const { product } = await createProductWithPrice(k, org);
    const order = async (customerId: string, status: string, minutes: number) =>
      (await createOrder(k, org, { customerId, productId: product.id }, { status, created_at: at(minutes) })).id;
    ids.carolPaid = await order(carol.id, "paid", 0);
    ids.carolPending = await order(carol.id, "pending", 10);
    ids.carolRefunded = await order(carol.id, "refunded", 20);
    ids.davePaid = await order(dave.id, "paid", 30);
    ids.davePartial = await order(dave.id, "partially_refunded", 40);
    ids.underPaid = await order(under.id, "paid", 50);
    ids.carolPortalToken = await createCustomerSessionToken(k, carol.id);
    carolOrg = org;
    carolId = carol.id;
    // another organization: same email, same statuses, same times; never listed
    const other = await orgWithToken(k);
    otherToken = other.token;
    const twin = await createCustomer(k, other.org.id, { email: "carol.smith@example.com" });
    const op = await createProductWithPrice(k, other.org.id);
    ids.foreignPaid = (
      await createOrder(k, other.org.id, { customerId: twin.id, productId: op.product.id }, { status: "paid", created_at: at(0) })
    ).id;
    ids.foreignPending = (
      await createOrder(k, other.org.id, { customerId: twin.id, productId: op.product.id }, { status: "pending", created_at: at(10) })
    ).id;
  });

  it("filters by one or several statuses", async () => {
    expect(await listIds("")).toEqual(sorted("carolPaid", "carolPending", "carolRefunded", "davePaid", "davePartial", "underPaid"));
    expect(await listIds("status=paid")).toEqual(sorted("carolPaid", "davePaid", "underPaid"));
    expect(await listIds("status=pending")).toEqual(sorted("carolPending"));
    expect(await listIds("status=refunded&status=partially_refunded")).toEqual(sorted("carolRefunded", "davePartial"));
    expect(await listIds("status=paid&status=paid")).toEqual(sorted("carolPaid", "davePaid", "underPaid"));
  });

  it("filters by creation time: created_after inclusive, created_before exclusive, any offset", async () => {
    expect(await listIds(`created_after=${encodeURIComponent(at(30).toISOString())}`)).toEqual(
      sorted("davePaid", "davePartial", "underPaid"),
    );
    expect(await listIds(`created_before=${encodeURIComponent(at(10).toISOString())}`)).toEqual(sorted("carolPaid"));
    expect(
      await listIds(`created_after=${encodeURIComponent(at(10).toISOString())}&created_before=${encodeURIComponent(at(30).toISOString())}`),
    ).toEqual(sorted("carolPending", "carolRefunded"));
    // 2025-06-01T02:00:00+02:00 is t0
    expect(await listIds(`created_after=${encodeURIComponent("2025-06-01T02:45:00+02:00")}`)).toEqual(sorted("underPaid"));
    expect(await listIds(`created_after=${encodeURIComponent(at(60).toISOString())}`)).toEqual([]);
    // an empty range is empty, not an error
    expect(
      await listIds(`created_after=${encodeURIComponent(at(30).toISOString())}&created_before=${encodeURIComponent(at(10).toISOString())}`),
    ).toEqual([]);
  });

  it("filters by customer email: a case-insensitive substring, % and _ literal", async () => {
    expect(await listIds("customer_email=carol.smith%40example.com")).toEqual(sorted("carolPaid", "carolPending", "carolRefunded"));
    expect(await listIds("customer_email=CAROL")).toEqual(sorted("carolPaid", "carolPending", "carolRefunded"));
    expect(await listIds("customer_email=other.test")).toEqual(sorted("davePaid", "davePartial"));
    expect(await listIds("customer_email=example.com")).toEqual(sorted("carolPaid", "carolPending", "carolRefunded", "underPaid"));
    expect(await listIds("customer_email=_")).toEqual(sorted("underPaid"));
    expect(await listIds("customer_email=%25")).toEqual(sorted("underPaid"));
    expect(await listIds("customer_email=nobody")).toEqual([]);
  });

  it("combines the filters with each other and with Polar's", async () => {
    expect(await listIds(`status=paid&customer_email=carol`)).toEqual(sorted("carolPaid"));
    expect(await listIds(`status=paid&status=pending&created_after=${encodeURIComponent(at(5).toISOString())}`)).toEqual(
      sorted("carolPending", "davePaid", "underPaid"),
    );
    expect(await listIds(`status=paid&created_before=${encodeURIComponent(at(40).toISOString())}&customer_email=DAVE`)).toEqual(
      sorted("davePaid"),
    );
    expect(await listIds(`status=refunded&customer_email=dave`)).toEqual([]);
    const page = await list("status=paid&limit=2&sorting=created_at");
    expect(page.body.items!.map((o) => o.id)).toEqual([ids.carolPaid, ids.davePaid]);
    expect((page.body as { pagination?: unknown }).pagination).toEqual({ total_count: 3, max_page: 2 });
  });

  it("never lists another organization's orders", async () => {
    expect(await listIds("status=paid&customer_email=carol.smith")).toEqual(sorted("carolPaid"));
    expect(await listIds(`created_before=${encodeURIComponent(at(15).toISOString())}`)).toEqual(sorted("carolPaid", "carolPending"));
    expect(await listIds("customer_email=carol", otherToken)).toEqual([ids.foreignPaid, ids.foreignPending].sort());
    expect(await listIds("status=pending", otherToken)).toEqual([ids.foreignPending]);
  });

  it("answers 422 with the parameter's location for a bad value", async () => {
    const bad = async (query: string, name: string) => {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body.detail?.length, query).toBeGreaterThan(0);
      for (const d of res.body.detail!) {
        expect(d.loc.slice(0, 2), query).toEqual(["query", name]);
        expect(typeof d.msg).toBe("string");
        expect(typeof d.type).toBe("string");
      }
    };
    await bad("status=shipped", "status");
    await bad("status=paid&status=PAID", "status");
    await bad("status=", "status");
    await bad("created_after=yesterday", "created_after");
    await bad("created_after=2025-06-01", "created_after");
    await bad("created_before=2025-13-01T00:00:00Z", "created_before");
    await bad("created_before=2025-06-01T00:00:00", "created_before");
    await bad("customer_email=", "customer_email");
    await bad(`customer_email=${"a".repeat(321)}`, "customer_email");
  });

  it("leaves the customer portal's order list as it was: the merchant's filters do not apply there", async () => {
    const res = await fetch(`${api.url}/v1/customer-portal/orders/?limit=100`, {
      headers: { authorization: `Bearer ${ids.carolPortalToken}` },
    });
    expect(res.status).toBe(200);
    const all = ((await res.json()) as { items: { id: string }[] }).items.map((o) => o.id).sort();
    expect(all).toEqual(sorted("carolPaid", "carolPending", "carolRefunded"));
    const filtered = await fetch(
      `${api.url}/v1/customer-portal/orders/?limit=100&status=paid&customer_email=nobody&created_after=2099-01-01T00:00:00Z`,
      {
        headers: { authorization: `Bearer ${ids.carolPortalToken}` },
      },
    );
    // not parameters of the portal's operation: refused there as any undeclared parameter is
    expect(filtered.status).toBe(422);
    const detail = ((await filtered.json()) as { detail: { loc: string[]; type: string }[] }).detail;
    expect(detail.map((d) => [d.loc.join("."), d.type]).sort()).toEqual([
      ["query.created_after", "extra_forbidden"],
      ["query.customer_email", "extra_forbidden"],
      ["query.status", "extra_forbidden"],
    ]);
    // and the portal's service does not apply them even if handed them
    const page = await listCustomerOrders(
      api.knex,
      { organizationId: carolOrg, customerId: carolId },
      invalid({ limit: 100, status: "paid", customer_email: "nobody" }),
      orderDependents,
    );
    expect(page.items.map((o) => o.id).sort()).toEqual(all);
  });
});
