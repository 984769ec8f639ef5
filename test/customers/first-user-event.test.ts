// A customer's `first_user_event_at` (what the 1.x client reads on every customer): the time of the
// first event ingested for them, lowered by every batch that stores an earlier one (small batches,
// COPYed large ones), never by a platform (system) event or by a duplicate external id skipped,
// and taken from the events known by an external id when a customer takes that id (created with
// it, updated to it, or made by a checkout); it can predate the customer.
import { describe, expect, it } from "vitest";
import { createPolar, type Polar } from "polar-sdk-1/2026-04";
import { storeEvents } from "../../server/events/store.js";
import { createCustomer, orgWithToken, uniqueEmail, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  return { org, polar: createPolar({ accessToken: token, baseUrl: api.url }) };
}

const first = async (polar: Polar, id: string) => (await polar.customers.get(id)).first_user_event_at;

describe("a customer's first user event", () => {
  it("is null until an event is ingested, then the earliest ingested, never later", async () => {
    const { org, polar } = await setup();
    const customer = await createCustomer(api.knex, org.id);
    expect(await first(polar, customer.id)).toBeNull();
    await polar.events.ingest({ events: [{ name: "call", customer_id: customer.id, timestamp: "2026-03-02T10:00:00Z" }] });
    expect(await first(polar, customer.id)).toBe("2026-03-02T10:00:00.000Z");
    // An earlier one lowers it (by external id too), a later one does not raise it.
    await api
      .knex("customers")
      .where({ id: customer.id })
      .update({ external_id: `ext-${customer.id}` });
    await polar.events.ingest({
      events: [
        { name: "call", external_customer_id: `ext-${customer.id}`, timestamp: "2026-03-01T09:00:00Z" },
        { name: "call", customer_id: customer.id, timestamp: "2026-03-05T09:00:00Z" },
      ],
    });
    expect(await first(polar, customer.id)).toBe("2026-03-01T09:00:00.000Z");
    // The platform's own events are not the customer's use.
    await api.knex.transaction((trx) =>
      storeEvents(trx, org.id, [
        {
          name: "meter.credited",
          source: "system",
          timestamp: new Date("2026-01-01T00:00:00Z"),
          customerId: customer.id,
          externalCustomerId: null,
          metadata: {},
        },
      ]),
    );
    expect(await first(polar, customer.id)).toBe("2026-03-01T09:00:00.000Z");
    // The same on every shape that nests the customer.
    const session = await polar.customerSessions.create({ customer_id: customer.id });
    expect(session.customer.first_user_event_at).toBe("2026-03-01T09:00:00.000Z");
  });

  it("counts a large (COPYed) batch, and not a duplicate external id sent again with an earlier time", async () => {
    const { org, polar } = await setup();
    const [a, b] = [await createCustomer(api.knex, org.id), await createCustomer(api.knex, org.id)];
    const events = Array.from({ length: 60 }, (_, i) => ({
      name: "bulk",
      customer_id: i % 2 ? a.id : b.id,
      timestamp: new Date(Date.UTC(2026, 1, 1, 0, 60 - i)).toISOString(),
    }));
    await polar.events.ingest({ events });
    expect(await first(polar, a.id)).toBe(new Date(Date.UTC(2026, 1, 1, 0, 1)).toISOString());
    expect(await first(polar, b.id)).toBe(new Date(Date.UTC(2026, 1, 1, 0, 2)).toISOString());
    // An external id stored already is skipped, whatever time it comes with.
    const c = await createCustomer(api.knex, org.id);
    const once = { name: "once", customer_id: c.id, external_id: `once-${c.id}` };
    await polar.events.ingest({ events: [{ ...once, timestamp: "2026-04-01T00:00:00Z" }] });
    await polar.events.ingest({ events: [{ ...once, timestamp: "2026-01-01T00:00:00Z" }] });
    expect(await first(polar, c.id)).toBe("2026-04-01T00:00:00.000Z");
  });

  it("takes the events an external id had before its customer: created with it, updated to it, made by a checkout", async () => {
    const { polar } = await setup();
    const [early, late, bought] = ["early", "late", "bought"].map((n) => `${n}-${Date.now()}-${Math.random()}`);
    await polar.events.ingest({
      events: [
        { name: "call", external_customer_id: early, timestamp: "2025-12-01T00:00:00Z" },
        { name: "call", external_customer_id: early, timestamp: "2025-11-01T00:00:00Z" },
        { name: "call", external_customer_id: late, timestamp: "2025-10-01T00:00:00Z" },
        { name: "call", external_customer_id: bought, timestamp: "2025-09-01T00:00:00Z" },
      ],
    });
    // Created with the id: the answer (and every read after) has the earliest, before its creation.
    const created = await polar.customers.create({ email: uniqueEmail("early"), external_id: early });
    expect(created.first_user_event_at).toBe("2025-11-01T00:00:00.000Z");
    expect(await first(polar, created.id)).toBe("2025-11-01T00:00:00.000Z");
    // Updated to the id: lowered below its own, later, event.
    const other = await polar.customers.create({ email: uniqueEmail("late") });
    await polar.events.ingest({ events: [{ name: "call", customer_id: other.id, timestamp: "2026-02-01T00:00:00Z" }] });
    const updated = await polar.customers.update(other.id, { external_id: late });
    expect(updated.first_user_event_at).toBe("2025-10-01T00:00:00.000Z");
    // A checkout's new customer with the id.
    const product = await polar.products.create({
      name: "Guide",
      prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "usd" }],
    });
    const checkout = await polar.checkouts.create({
      products: [product.id],
      external_customer_id: bought,
      customer_email: uniqueEmail("bought"),
    });
    await polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_sandbox_success",
      customer_billing_address: { country: "FR" },
    });
    const buyer = await polar.customers.getExternal(bought);
    expect(buyer.first_user_event_at).toBe("2025-09-01T00:00:00.000Z");
  });
});
