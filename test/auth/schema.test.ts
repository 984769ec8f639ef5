// better-auth's expected schema vs the tables our knex migrations create. Two of better-auth's own
// checks: its migration planner (what `auth migrate` would create or add) must have nothing to do,
// and its start-up schema check (missing tables or columns, required columns it never writes) must
// pass. A plugin added, an option changed or a better-auth upgrade that needs another column fails
// here until a migration adds it.
import { getMigrations } from "better-auth/db/migration";
import { describe, expect, it } from "vitest";
import { useTestApi } from "../harness/index.js";

describe("better-auth's schema and our migrations", () => {
  const api = useTestApi();

  it("leave better-auth's migration planner nothing to create, add, index or warn about", async () => {
    const warnings: string[] = [];
    const logger = {
      level: "warn" as const,
      log: (level: string, message: string) => void (level !== "debug" && level !== "info" && warnings.push(message)),
    };
    const plan = await getMigrations({ ...api.auth.options, logger });
    // Column types and nullability are only warned about. One warning is better-auth's own slip:
    // its planner knows PostgreSQL's bigint as "bigint" but introspection reports "int8".
    expect(
      warnings.filter(
        (w) => w !== "Field last_request in table rate_limits has a different type in the database. Expected number but got int8.",
      ),
    ).toEqual([]);
    expect(plan.toBeCreated.map((t) => t.table)).toEqual([]);
    expect(plan.toBeAdded.map((t) => `${t.table}: ${Object.keys(t.fields).join(", ")}`)).toEqual([]);
    expect(plan.toBeAddedIndexes.map((i) => `${i.table}.${i.name}`)).toEqual([]);
    expect(plan.unsafeChanges ?? []).toEqual([]);
  });

  it("pass better-auth's own schema check", async () => {
    const context = await api.auth.$context;
    expect(context.checkSchema).toBeTypeOf("function");
    await expect(context.checkSchema?.() ?? Promise.resolve()).resolves.toBeUndefined();
  });

  it("put better-auth's organizations in our organizations table", async () => {
    const context = await api.auth.$context;
    expect(context.tables.organization.modelName).toBe("organizations");
    expect(context.tables.organization.fields.logo.fieldName).toBe("avatar_url");
    expect(context.tables.user.modelName).toBe("users");
  });
});
