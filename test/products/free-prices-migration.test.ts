// Migration 0070 turns free prices into fixed prices of 0 in the product's currency and gives
// custom prices without a minimum the 50 that was in effect. Run on tables of its own (a schema
// made for the test, rolled back after), with rows as the earlier migrations left them.
import { describe, expect, it } from "vitest";
import { up } from "../../server/migrations/0070_product_trials_visibility.js";
import { useTestDatabase } from "../harness/index.js";

const db = useTestDatabase();

describe("migration 0070: free prices and custom minimums", () => {
  it("converts free prices to fixed 0 in the currency of the product's other prices (usd without any), and backfills custom minimums", async () => {
    await db.knex
      .transaction(async (trx) => {
        await trx.raw("create schema m0070; set local search_path to m0070");
        await trx.raw("create table products (id uuid primary key, recurring_interval text)");
        await trx.raw(`create table product_prices (id uuid primary key default gen_random_uuid(), product_id uuid, amount_type text, price_currency text,
          price_amount integer, minimum_amount integer, position integer not null default 0)`);
        await trx.raw(`insert into products values ('00000000-0000-4000-8000-000000000001', 'month'), ('00000000-0000-4000-8000-000000000002', null),
          ('00000000-0000-4000-8000-000000000003', 'month')`);
        await trx.raw(`insert into product_prices (product_id, amount_type, price_currency, price_amount, minimum_amount, position) values
          ('00000000-0000-4000-8000-000000000001', 'free', null, null, null, 0),
          ('00000000-0000-4000-8000-000000000001', 'metered_unit', 'eur', null, null, 1),
          ('00000000-0000-4000-8000-000000000002', 'free', null, null, null, 0),
          ('00000000-0000-4000-8000-000000000003', 'custom', 'gbp', null, null, 0),
          ('00000000-0000-4000-8000-000000000003', 'custom', 'gbp', null, 700, 1)`);
        await up(trx);
        const rows = await trx("product_prices")
          .orderBy(["product_id", "position"])
          .select("amount_type", "price_currency", "price_amount", "minimum_amount");
        expect(rows).toEqual([
          { amount_type: "fixed", price_currency: "eur", price_amount: 0, minimum_amount: null },
          { amount_type: "metered_unit", price_currency: "eur", price_amount: null, minimum_amount: null },
          { amount_type: "fixed", price_currency: "usd", price_amount: 0, minimum_amount: null },
          { amount_type: "custom", price_currency: "gbp", price_amount: null, minimum_amount: 50 },
          { amount_type: "custom", price_currency: "gbp", price_amount: null, minimum_amount: 700 },
        ]);
        const products = await trx("products").orderBy("id").select("recurring_interval_count", "visibility", "trial_interval");
        expect(products).toEqual([1, 1, 1].map(() => ({ recurring_interval_count: 1, visibility: "public", trial_interval: null })));
        throw new RollBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RollBack)) throw err;
      });
    expect((await db.knex.raw("select count(*)::int as n from pg_namespace where nspname = 'm0070'")).rows[0].n).toBe(0);
  });
});

class RollBack extends Error {}
