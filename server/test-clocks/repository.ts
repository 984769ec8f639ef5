// Billing test clock queries (sandbox only). Every rule that compares against "now" asks clockNow
// for the real time or the frozen time of its customer's clock, so a clock moves the whole
// lifecycle. This domain sits below subscriptions and benefit grants; the subscription reads a
// clock needs are handed in by test-clocks/handlers.ts (TestClockDependents).
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import type { RowPatch } from "../kit/db.js";

export interface TestClockRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string | null;
  frozen_time: Date;
  deleted_at: Date | null;
}

export async function clockNow(db: Knex, testClockId: string | null | undefined): Promise<Date> {
  if (!testClockId) return new Date();
  const clock = await db("test_clocks").where({ id: testClockId }).first("frozen_time");
  return clock ? new Date(clock.frozen_time) : new Date();
}

/** The organization's clocks that are not deleted. */
export const readable = (db: Knex, caller: OrganizationCaller) =>
  db("test_clocks").where({ organization_id: caller.organizationId }).whereNull("deleted_at");

export async function insertTestClock(
  db: Knex,
  columns: { organization_id: string; name: string | null; frozen_time: Date },
): Promise<TestClockRow> {
  const [row] = await db("test_clocks").insert(columns).returning("*");
  return row as TestClockRow;
}

/** Writes `patch` (with its own modified_at) and returns the clock. */
export async function updateTestClock(db: Knex, id: string, patch: RowPatch<TestClockRow>): Promise<TestClockRow> {
  const [updated] = await db("test_clocks").where({ id }).update(patch).returning("*");
  return updated as TestClockRow;
}
