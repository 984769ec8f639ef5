// The house rules in eslint.config.js, held to what they must refuse and what they must let
// through: `make lint` passing proves nothing if a selector silently matches nothing.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages of our restricted-syntax rules for `code` linted as if it were the file `path`. */
async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result.messages
    .filter((m) => m.ruleId === "no-restricted-syntax" || m.ruleId === "no-restricted-properties")
    .map((m) => m.message);
}

const QUERY = /^Queries/;

describe("lint rules", () => {
  it("refuses queries started from a connection or transaction outside repositories", async () => {
    const code = [
      'import type { Knex } from "knex";',
      "export async function a(db: Knex, trx: Knex.Transaction) {",
      '  await db("orders").where({ id: 1 });',
      '  await trx.raw("select 1");',
      '  await db.from("orders");',
      "  return db(`orders`);",
      "}",
      'export class B { constructor(private readonly db: Knex) {} read() { return this.db("orders").first(); } }',
      "export const byName = (db: Knex, table: string) => db(table).first();",
      "declare function insertReturning(db: Knex, table: string, values: object): Promise<unknown>;",
      'export const made = (db: Knex) => insertReturning(db, "orders", {});',
    ].join("\n");
    const service = await refusals("server/orders/service.ts", code);
    expect(service.filter((m) => QUERY.test(m))).toHaveLength(6);
    expect(service.filter((m) => m.startsWith("kit's row helpers"))).toHaveLength(1);
    expect((await refusals("workflows/activities/anything.ts", code)).filter((m) => QUERY.test(m))).toHaveLength(6);
    expect(await refusals("server/orders/repository.ts", code)).toEqual([]);
    expect(await refusals("server/meters/rollups-repository.ts", code)).toEqual([]);
    expect(await refusals("server/kit/db.ts", code)).toEqual([]);
  });

  it("lets a service compose a repository's builder", async () => {
    const code = [
      'import type { Knex } from "knex";',
      "declare function readable(db: Knex): Knex.QueryBuilder;",
      'export const list = (db: Knex) => readable(db).where("a", 1).orderBy("b").select("c");',
    ].join("\n");
    expect(await refusals("server/orders/service.ts", code)).toEqual([]);
  });

  it("refuses `as never`, `as <X>Out` and spread-then-properties in server code, and process.env outside config", async () => {
    const code = [
      "type FooOut = { a: number };",
      "declare const x: unknown;",
      "export const a = x as never;",
      "export const b = x as FooOut;",
      "export const c = { ...b, more: 1 };",
      "export const d = Object.assign({}, b, { more: 1 });",
      "export const e = { more: 1, ...b };",
      "export const f = process.env.X;",
    ].join("\n");
    const found = await refusals("server/orders/models.ts", code);
    expect(found.filter((m) => m.startsWith("No `as never`"))).toHaveLength(1);
    expect(found.filter((m) => m.startsWith("No `as <X>Out`"))).toHaveLength(1);
    expect(found.filter((m) => m.startsWith("No object spread"))).toHaveLength(1);
    expect(found.filter((m) => m.includes("server/config.ts"))).toHaveLength(1);
    expect((await refusals("server/config.ts", code)).filter((m) => m.includes("server/config.ts"))).toEqual([]);
  });
});
