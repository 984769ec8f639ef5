// Stripe Tax is asked outside any transaction: while a calculation waits at the recorder (Stripe
// being slow), the checkout's row is not locked and no transaction of the API is open, for the
// create, the merchant's and the buyer's updates and the confirm, with an Idempotency-Key or
// without. A checkout whose tax inputs change under every attempt is a 422, not a quote for
// inputs it no longer has.
import { randomUUID } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnex } from "../../server/kit/db.js";
import { setStripeTaxConfig } from "../../server/tax/providers.js";
import { orgWithToken, plainJson, useTestApi, type ApiHandle } from "../harness/index.js";
import { startStripeMock } from "../processors/stripe-mock.js";
import { startStripeRecorder } from "./stripe-recorder.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
/** The API under test runs over a pool of its own, named, so that its connections can be told apart. */
const APP = `tax-outside-${randomUUID().slice(0, 8)}`;
let pool: Knex;
let other: ApiHandle;
let mock: Awaited<ReturnType<typeof startStripeMock>>;
let recorder: Awaited<ReturnType<typeof startStripeRecorder>>;

beforeAll(async () => {
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set("application_name", APP);
  pool = createKnex(url.toString());
  other = await api.startAnother({ knex: pool, validateResponses: true });
  mock = await startStripeMock();
  recorder = await startStripeRecorder(mock.port);
  setStripeTaxConfig({ secretKey: "sk_test_borealis", apiBase: `http://127.0.0.1:${recorder.port}` });
});

afterAll(async () => {
  setStripeTaxConfig(null);
  recorder?.beforeForward(null);
  await recorder?.stop();
  mock?.stop();
  await other?.close();
  await pool?.destroy();
});

const CALCULATIONS = "/v1/tax/calculations";
const calculations = () => recorder.requests.filter((r) => r.method === "POST" && r.path === CALCULATIONS);

async function stripeShop() {
  const { org, token } = await orgWithToken(api.knex);
  const polar = new Polar({ accessToken: token, serverURL: other.url });
  const call = plainJson(other.url, token);
  const tax_settings = { provider: "stripe", origin_country: "FR", prices_include_tax: false, registrations: [{ country: "FR" }] };
  expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings })).status).toBe(200);
  const product = await polar.products.create({
    name: "Course",
    recurringInterval: null,
    prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
  });
  return { polar, call, product, anon: new Polar({ serverURL: other.url }) };
}

/** What the database shows while a calculation waits: whether the checkout's row could be locked, and the API's open transactions. */
interface Seen {
  locked: string | null;
  idleInTransaction: number;
}

async function look(checkoutId: string | null): Promise<Seen> {
  let locked: string | null = null;
  if (checkoutId !== null) {
    try {
      await api.knex.transaction((trx) => trx.raw("select id from checkouts where id = ? for update nowait", [checkoutId]));
    } catch (err) {
      locked = (err as { code?: string }).code ?? String(err);
    }
  }
  const { rows } = await api.knex.raw<{ rows: { n: number }[] }>(
    "select count(*)::int as n from pg_stat_activity where application_name = ? and state like 'idle in transaction%'",
    [APP],
  );
  return { locked, idleInTransaction: rows[0].n };
}

/** Runs `request` with every calculation held at the recorder while the database is looked at. */
async function whileHeld<T>(checkoutId: string | null, request: () => Promise<T>): Promise<{ result: T; seen: Seen[] }> {
  const seen: Seen[] = [];
  recorder.beforeForward(CALCULATIONS, async () => {
    // Stripe answering slowly: the request has been waiting a while when the database is looked at.
    await sleep(100);
    seen.push(await look(checkoutId));
  });
  try {
    return { result: await request(), seen };
  } finally {
    recorder.beforeForward(null);
  }
}

const free: Seen = { locked: null, idleInTransaction: 0 };

describe("Stripe Tax outside the checkout's transaction", () => {
  it("leaves the checkout unlocked and no transaction open while the buyer's update waits for Stripe", async () => {
    const { polar, product, anon } = await stripeShop();
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const before = calculations().length;
    const { result, seen } = await whileHeld(checkout.id, () =>
      anon.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { customerBillingAddress: { country: "DE", postalCode: "10115" } },
      }),
    );
    expect(seen).toEqual([free]);
    expect(calculations().length - before).toBe(1);
    expect([result.taxAmount, result.totalAmount]).toEqual([148, 1647]);
  });

  it("leaves the checkout unlocked and no transaction open while the merchant's create and update wait for Stripe", async () => {
    const { polar, product } = await stripeShop();
    const created = await whileHeld(null, () =>
      polar.checkouts.create({ products: [product.id], customerBillingAddress: { country: "DE" } }),
    );
    expect(created.seen).toEqual([free]);
    expect(created.result.taxAmount).toBe(148);
    const checkout = created.result;
    const updated = await whileHeld(checkout.id, () =>
      polar.checkouts.update({ id: checkout.id, checkoutUpdate: { customerBillingAddress: { country: "DE", postalCode: "80331" } } }),
    );
    expect(updated.seen).toEqual([free]);
    expect(updated.result.taxAmount).toBe(148);
  });

  it("leaves the checkout unlocked and no transaction open while the confirm waits for Stripe, and charges the total shown", async () => {
    const { polar, product, anon } = await stripeShop();
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const customerBillingAddress = { country: "DE" as const, postalCode: "10115" };
    const shown = await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress },
    });
    const { result, seen } = await whileHeld(checkout.id, () =>
      anon.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: `b-${randomUUID().slice(0, 8)}@example.com`,
          customerName: "B",
          customerBillingAddress,
          confirmationTokenId: "tok_sandbox_success",
        },
      }),
    );
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s).toEqual(free);
    expect(result.totalAmount).toBe(shown.totalAmount);
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect([order.status, order.taxAmount, order.totalAmount]).toEqual(["paid", shown.taxAmount, shown.totalAmount]);
  });

  it("asks Stripe outside any transaction with an Idempotency-Key too, and replays the answer", async () => {
    const { polar, product, call } = await stripeShop();
    const key = randomUUID();
    const headers = { "Idempotency-Key": key };
    const created = await whileHeld(null, () =>
      polar.checkouts.create({ products: [product.id], customerBillingAddress: { country: "DE" } }, { headers }),
    );
    expect(created.seen).toEqual([free]);
    expect((await polar.checkouts.create({ products: [product.id], customerBillingAddress: { country: "DE" } }, { headers })).id).toBe(
      created.result.id,
    );
    const checkout = created.result;
    const update = (postalCode: string) =>
      polar.checkouts.update(
        { id: checkout.id, checkoutUpdate: { customerBillingAddress: { country: "DE", postalCode } } },
        { headers: { "Idempotency-Key": `u-${key}` } },
      );
    const updated = await whileHeld(checkout.id, () => update("80331"));
    expect(updated.seen).toEqual([free]);
    expect(updated.result.customerBillingAddress?.postalCode).toBe("80331");
    const anon = new Polar({ serverURL: other.url });
    const byBuyer = await whileHeld(checkout.id, () =>
      anon.checkouts.clientUpdate(
        { clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerBillingAddress: { country: "DE", postalCode: "50667" } } },
        { headers: { "Idempotency-Key": `c-${key}` } },
      ),
    );
    expect(byBuyer.seen).toEqual([free]);
    // The merchant's update sent again with its key is its first answer, not a second write.
    const before = calculations().length;
    expect((await update("80331")).customerBillingAddress?.postalCode).toBe("80331");
    expect(calculations().length).toBe(before);
    expect((await call("GET", `/v1/checkouts/${checkout.id}`)).body.customer_billing_address).toMatchObject({ postal_code: "50667" });
  });

  it("answers a 422 when the checkout's tax inputs change under every attempt, and saves nothing", async () => {
    const { polar, product } = await stripeShop();
    const checkout = await polar.checkouts.create({ products: [product.id], customerBillingAddress: { country: "DE" } });
    const errors: unknown[] = [];
    let n = 0;
    recorder.beforeForward(CALCULATIONS, async () => {
      // Another writer moves the buyer's postal code while Stripe computes the quote (it fails, after a second, if the row is locked).
      try {
        await api.knex.transaction(async (trx) => {
          await trx.raw("set local lock_timeout = '1s'");
          await trx("checkouts")
            .where({ id: checkout.id })
            .update({ customer_billing_address: JSON.stringify({ country: "DE", postal_code: String(20000 + n++) }) });
        });
      } catch (err) {
        errors.push(err);
      }
    });
    const before = calculations().length;
    try {
      const res = await plainJson(other.url, "")("PATCH", `/v1/checkouts/client/${checkout.clientSecret}`, { customer_name: "Buyer" });
      expect(errors).toEqual([]);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ["body"], msg: expect.stringContaining("changed"), type: "value_error" }]);
    } finally {
      recorder.beforeForward(null);
    }
    expect(calculations().length - before).toBe(4);
    const row = await api.knex("checkouts").where({ id: checkout.id }).first();
    expect([row.customer_billing_address.postal_code, row.customer_name, Number(row.tax_amount)]).toEqual(["20003", null, 148]);
  });
});
