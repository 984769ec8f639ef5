// OpenTelemetry (server/kit/telemetry.ts): the trace context an outbox row was written in, copied
// to its webhook events by the fan-out, so a delivery's span joins the trace of the request or
// activity that caused it. Null when tracing is off. Nullable columns without a default: adding
// them rewrites nothing.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table outbox add column trace_context text");
  await knex.raw("alter table webhook_events add column trace_context text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_events drop column if exists trace_context");
  await knex.raw("alter table outbox drop column if exists trace_context");
}
