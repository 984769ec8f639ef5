// Billing test clocks (a Borealis extension, sandbox only, like Stripe's): a frozen time that bound
// customers live on. Advancing a clock pokes the workflow of every subscription on it, which then
// acts as if that time had passed (billing reads "now" through clockNow), and runs the reminders'
// Schedule. A clock is `advancing` while something on it is due, then `ready`.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { listPage, type Page } from "../kit/pagination.js";
import { iso, isoRequired } from "../kit/time.js";
import { getProcessor } from "../processors/index.js";
import { pokeAfterCommit, runEmailRemindersAfterCommit } from "../workflows-door.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";
import { anyOnTestClock, bindToTestClock, lockLiveInOrganization, onTestClocks } from "../customers/repository.js";
import { insertTestClock, readable, updateTestClock, type TestClockRow } from "./repository.js";

export type TestClockOut = components["schemas"]["TestClock"];

/**
 * What a clock reads of the subscriptions on it (subscriptions sit above test clocks, which they ask
 * for the time), handed in by test-clocks/handlers.ts.
 */
export interface TestClockDependents {
  somethingDueOnClock(db: Knex, clock: { id: string; frozen_time: Date }): Promise<boolean>;
  subscriptionIdsOnClock(db: Knex, clockId: string): Promise<string[]>;
  hasSubscriptions(db: Knex, customerId: string): Promise<boolean>;
}

/** How far one advance may move a clock: every renewal in between runs, so the work is bounded. */
const MAX_ADVANCE_MS = 2 * 366 * 86_400_000;

function requireSandbox(): void {
  if (getProcessor().name !== "sandbox") throw new NotPermitted("Test clocks are available with the sandbox processor only.");
}

async function find(db: Knex, caller: OrganizationCaller, id: string, forUpdate = false): Promise<TestClockRow> {
  const q = isUuid(id) ? readable(db, caller).where({ id }).first() : undefined;
  const row = (q ? await (forUpdate ? q.forUpdate() : q) : undefined) as TestClockRow | undefined;
  if (!row) throw new ResourceNotFound("Test clock not found.");
  return row;
}

async function toTestClocks(db: Knex, rows: TestClockRow[], dependents: TestClockDependents): Promise<TestClockOut[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const customers = await onTestClocks(db, ids);
  const advancing = new Set<string>();
  for (const r of rows) if (await dependents.somethingDueOnClock(db, r)) advancing.add(r.id);
  return rows.map((r) => ({
    id: r.id,
    created_at: isoRequired(r.created_at),
    modified_at: iso(r.modified_at),
    organization_id: r.organization_id,
    name: r.name,
    frozen_time: isoRequired(r.frozen_time),
    status: advancing.has(r.id) ? "advancing" : "ready",
    customer_ids: customers.filter((c) => c.test_clock_id === r.id).map((c) => c.id),
  }));
}

const toTestClock = async (db: Knex, row: TestClockRow, dependents: TestClockDependents) => (await toTestClocks(db, [row], dependents))[0];

function parseTime(value: unknown, loc: (string | number)[]): Date {
  const t = typeof value === "string" ? Date.parse(value) : NaN;
  if (!Number.isFinite(t)) throw invalid(loc, "Input should be a valid datetime", "datetime_parsing", value);
  return new Date(t);
}

export async function createTestClock(
  db: Knex,
  caller: OrganizationCaller,
  input: { name?: string | null; frozen_time: string; organization_id?: string | null },
  dependents: TestClockDependents,
): Promise<TestClockOut> {
  requireSandbox();
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found.", "value_error", input.organization_id);
  }
  const frozen = parseTime(input.frozen_time, ["body", "frozen_time"]);
  const row = await insertTestClock(db, { organization_id: caller.organizationId, name: input.name?.trim() || null, frozen_time: frozen });
  return toTestClock(db, row, dependents);
}

export async function getTestClock(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  dependents: TestClockDependents,
): Promise<TestClockOut> {
  return toTestClock(db, await find(db, caller, id), dependents);
}

export async function listTestClocks(
  db: Knex,
  caller: OrganizationCaller,
  query: { organization_id?: string | string[] | null; page?: number; limit?: number },
  dependents: TestClockDependents,
): Promise<Page<TestClockOut>> {
  const q = readable(db, caller).select("*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("organization_id", orgs.filter(isUuid));
  q.orderBy([{ column: "created_at", order: "desc" }, { column: "id" }]);
  return listPage(q, query, (rows: TestClockRow[]) => toTestClocks(db, rows, dependents));
}

/** Moves the clock forward; the subscriptions on it catch up in the background (status `advancing`). */
export async function advanceTestClock(
  uow: UnitOfWork,
  caller: OrganizationCaller,
  id: string,
  input: { frozen_time: string },
  dependents: TestClockDependents,
): Promise<TestClockOut> {
  requireSandbox();
  const { db } = uow;
  const row = await db.transaction(async (trx) => {
    const clock = await find(trx, caller, id, true);
    const to = parseTime(input.frozen_time, ["body", "frozen_time"]);
    const from = new Date(clock.frozen_time).getTime();
    if (to.getTime() <= from)
      throw invalid(["body", "frozen_time"], "The new time must be later than the clock's current time.", "value_error", input.frozen_time);
    if (to.getTime() - from > MAX_ADVANCE_MS)
      throw invalid(["body", "frozen_time"], "A clock moves at most two years at a time.", "value_error", input.frozen_time);
    const updated = await updateTestClock(trx, clock.id, { frozen_time: to, modified_at: new Date() });
    pokeAfterCommit(uow, trx, await dependents.subscriptionIdsOnClock(trx, clock.id));
    runEmailRemindersAfterCommit(trx);
    return updated;
  });
  return toTestClock(db, row, dependents);
}

/** Binds a customer without subscriptions to the clock. */
export async function attachCustomer(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: { customer_id: string },
  dependents: TestClockDependents,
): Promise<TestClockOut> {
  requireSandbox();
  return db.transaction(async (trx) => {
    const clock = await find(trx, caller, id, true);
    const loc = ["body", "customer_id"];
    const customer = isUuid(input.customer_id) ? await lockLiveInOrganization(trx, caller.organizationId, input.customer_id) : undefined;
    if (!customer) throw invalid(loc, "Customer not found.", "value_error", input.customer_id);
    if (await dependents.hasSubscriptions(trx, customer.id)) {
      throw invalid(loc, "A customer that already has subscriptions can't move to a test clock.", "value_error", input.customer_id);
    }
    await bindToTestClock(trx, customer.id, clock.id);
    return toTestClock(trx, clock, dependents);
  });
}

export async function deleteTestClock(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const clock = await find(trx, caller, id, true);
    if (await anyOnTestClock(trx, clock.id)) {
      throw new NotPermitted("Customers are bound to this test clock: delete them first.");
    }
    await updateTestClock(trx, clock.id, { deleted_at: new Date(), modified_at: new Date() });
  });
}
