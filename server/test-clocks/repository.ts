// Billing test clock queries (sandbox only). Every rule that compares against "now" asks clockNow
// for the real time or the frozen time of the clock its customer is bound to, so a test clock moves
// the whole lifecycle (renewals, dunning, grants), not only the workflow's timers. This domain sits
// below subscriptions and benefit grants: they read a clock's time, it imports neither. So the
// few reads of subscriptions (and their pending orders) that a clock's status and its advance need
// are here, at the end of this file, and not in subscriptions/repository.ts: importing that would
// make test-clocks and subscriptions import each other.
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
export const readable = (db: Knex, caller: OrganizationCaller) => db("test_clocks").where({ organization_id: caller.organizationId }).whereNull("deleted_at");

export async function insertTestClock(db: Knex, columns: { organization_id: string; name: string | null; frozen_time: Date }): Promise<TestClockRow> {
  const [row] = await db("test_clocks").insert(columns).returning("*");
  return row as TestClockRow;
}

/** Writes `patch` (with its own modified_at) and returns the clock. */
export async function updateTestClock(db: Knex, id: string, patch: RowPatch<TestClockRow>): Promise<TestClockRow> {
  const [updated] = await db("test_clocks").where({ id }).update(patch).returning("*");
  return updated as TestClockRow;
}

// ---------------------------------------------------------------------------------------------
// The subscriptions on clocks (see the top of this file for why these are here).

/**
 * Live subscriptions (or charges in flight) with something due at or before `frozen` (a clock's
 * time: a value, or a column of a joined test_clocks row).
 */
function whereDueBy(db: Knex, q: Knex.QueryBuilder, frozen: Date | Knex.Raw): Knex.QueryBuilder {
  return q.where((w) =>
    w
      .whereNotNull("subscriptions.pending_order_id")
      .orWhere((a) => a.whereIn("subscriptions.status", ["active", "trialing"]).where("subscriptions.current_period_end", "<=", frozen))
      .orWhere((p) =>
        p.where("subscriptions.status", "past_due").whereExists(
          db("orders")
            .whereRaw("orders.subscription_id = subscriptions.id")
            .where("orders.status", "pending")
            .where("orders.next_payment_attempt_at", "<=", frozen),
        ),
      ),
  );
}

/** Whether a live subscription (or a charge in flight) on the clock has something due at or before its time. */
export async function somethingDueOnClock(db: Knex, clock: Pick<TestClockRow, "id" | "frozen_time">): Promise<boolean> {
  const q = whereDueBy(db, db("subscriptions").where("subscriptions.test_clock_id", clock.id), clock.frozen_time);
  return Boolean(await q.first("subscriptions.id"));
}

/**
 * Subscriptions on any test clock with something due at or before their clock's time: the worker's
 * sweep pokes them, so that an advance whose pokes were lost (Temporal unreachable at that moment)
 * still catches up instead of leaving its clock `advancing`.
 */
export async function subscriptionsDueOnClocks(db: Knex, limit = 500): Promise<string[]> {
  const q = db("subscriptions").join("test_clocks", "test_clocks.id", "subscriptions.test_clock_id").whereNull("test_clocks.deleted_at");
  const rows: { id: string }[] = await whereDueBy(db, q, db.raw("test_clocks.frozen_time")).orderBy("subscriptions.id").limit(limit).select("subscriptions.id");
  return rows.map((r) => r.id);
}

/** The ids of the subscriptions on the clock. */
export async function subscriptionIdsOnClock(db: Knex, clockId: string): Promise<string[]> {
  const subs: { id: string }[] = await db("subscriptions").where({ test_clock_id: clockId }).select("id");
  return subs.map((s) => s.id);
}

/** Whether the customer has any subscription (of any status). */
export async function hasSubscriptions(db: Knex, customerId: string): Promise<boolean> {
  return Boolean(await db("subscriptions").where({ customer_id: customerId }).first("id"));
}
