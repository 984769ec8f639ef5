// scripts/repository-tables.ts (`make repository-tables`) held to what it must report: a check that
// passes proves nothing if its patterns silently match nothing.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { check, foreignStarts, OWNERS, repositoryFiles, tableStarts } from "../../scripts/repository-tables.js";

describe("repository tables", () => {
  it("finds the table each kind of statement starts from", () => {
    const text = [
      'const a = db("orders").where({ id });', // 1
      'const b = trx<CustomerRow>("customers as c").first();', // 2
      "const c = this.db(`products`).select();", // 3
      'const d = db<Map<string, X>>(table).whereIn("id", ids);', // 4
      "await trx.raw(`insert into payments (id) values (?)`, [id]);", // 5
      'await db.raw("update subscriptions set x = 1");', // 6
      "await db.raw(`delete from refunds where id = ?`, [id]);", // 7
      "await db.raw<{ rows: R[] }>(`select r.id\n  from checkouts r where r.id = ?`, [id]);", // 8 (and 9)
      'q.select(db.raw("count(*) as n"), db.raw(`(select 1 from orders)`));', // 10: expressions, not statements
      'q.join("products", "products.id", "orders.product_id");', // 11: a join inside a statement
      'return insertReturning<RefundRow>(db, "refunds", values);', // 12: kit's row helpers start statements too
      "await softDeleteRow(trx, table, id);", // 13
      "await trx.raw(`with a as (insert into meter_rollups (x) values (1)), b as (update subscriptions set x = 1)", // 14: what a `with` writes
      "  delete from refunds where id in (select id from orders)`);", // 15
    ].join("\n");
    expect(tableStarts(text)).toEqual([
      { line: 1, table: "orders" },
      { line: 2, table: "customers" },
      { line: 3, table: "products" },
      { line: 4, table: "?" },
      { line: 5, table: "payments" },
      { line: 6, table: "subscriptions" },
      { line: 7, table: "refunds" },
      { line: 8, table: "checkouts" },
      { line: 12, table: "refunds" },
      { line: 13, table: "?" },
      { line: 14, table: "meter_rollups" },
      { line: 14, table: "subscriptions" },
      { line: 15, table: "refunds" },
    ]);
  });

  it("reports a start on another domain's table, and none on the module's own", () => {
    const text = 'export const f = (db: Knex) => db("orders").first();\nexport const g = (db: Knex) => db("customers").first();\n';
    expect(foreignStarts("server/orders/repository.ts", text)).toEqual([
      { file: "server/orders/repository.ts", line: 2, table: "customers", owner: "customers" },
    ]);
    expect(foreignStarts("server/customers/repository.ts", text).map((f) => f.table)).toEqual(["orders"]);
    expect(foreignStarts("server/kit/outbox-repository.ts", 'trx("outbox").insert(row)')).toEqual([]);
    expect(OWNERS.idempotency_keys).toBe("kit");
  });

  it("passes on the tree: no repository starts a statement on another domain's table", () => {
    // The patterns match the real repositories' statements (the check would pass on matching nothing).
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(25);
    expect(files).toContain("server/meters/events-repository.ts");
    const ordersStarts = tableStarts(readFileSync("server/orders/repository.ts", "utf8")).map((s) => s.table);
    expect(ordersStarts).toEqual(expect.arrayContaining(["orders", "order_items", "invoice_counters"]));
    expect(ordersStarts.filter((t) => t === "orders").length).toBeGreaterThan(5);
    // addTotals' `with rollups as (insert into meter_rollups …) insert into event_names …`
    expect(tableStarts(readFileSync("server/meters/events-repository.ts", "utf8")).map((s) => s.table)).toContain("meter_rollups");
    expect(check()).toEqual([]);
  });
});
