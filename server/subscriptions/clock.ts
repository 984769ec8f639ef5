// What time it is for a subscription: the real time, or the frozen time of the billing test
// clock its customer is bound to (sandbox only). Every rule that compares against "now" asks here,
// so a test clock moves the whole lifecycle, not only the workflow's timers.
import type { Knex } from "knex";

export async function clockNow(db: Knex, testClockId: string | null | undefined): Promise<Date> {
  if (!testClockId) return new Date();
  const clock = await db("test_clocks").where({ id: testClockId }).first("frozen_time");
  return clock ? new Date(clock.frozen_time) : new Date();
}
