// The outbox table's statements: the insert a state change makes in its own transaction
// (server/kit/outbox.ts), the relay's claim of committed rows and their mark as published
// (workflows/activities/outbox.ts, handed in through ActivityDeps.outbox), and the operators'
// count of rows not relayed yet (server/observability/metrics.ts).
import type { Knex } from "knex";
import { numberOf } from "./rows.js";

export interface OutboxInsert {
  organization_id: string;
  type: string;
  /** The webhook body, serialized once by the emitter. */
  payload: string;
  /** The W3C traceparent of the emitting span, when tracing is on. */
  trace_context?: string;
}

export async function insertOutboxRows(trx: Knex.Transaction, rows: OutboxInsert[]): Promise<void> {
  await trx("outbox").insert(rows);
}

/**
 * The next `limit` unpublished rows, oldest first, locked; rows another claimer holds are skipped
 * (SKIP LOCKED), so concurrent claimers never get the same row.
 */
export async function lockUnpublished(trx: Knex.Transaction, limit: number): Promise<{ id: number; type: string }[]> {
  const rows: { id: number | string; type: string }[] = await trx("outbox")
    .select("id", "type")
    .whereNull("published_at")
    .orderBy("id")
    .limit(limit)
    .forUpdate()
    .skipLocked();
  // bigserial: a number where server/kit/db.ts installed its int8 parser, a string otherwise.
  return rows.map((r) => ({ id: Number(r.id), type: r.type }));
}

export async function markPublished(trx: Knex.Transaction, ids: number[]): Promise<void> {
  await trx("outbox").whereIn("id", ids).update({ published_at: trx.fn.now() });
}

/** Rows not relayed to webhooks yet (a gauge of server/observability/metrics.ts). */
export function countUnpublished(db: Knex): Promise<number> {
  return numberOf(db.raw("select count(*) as v from outbox where published_at is null"));
}

/** The rows' organization and event data, the webhook body's `data` as JSON text (the email triggers read them in the claim's transaction). */
export async function outboxEvents(
  trx: Knex.Transaction,
  ids: number[],
): Promise<{ id: number; organization_id: string; type: string; data: string }[]> {
  const rows: { id: number | string; organization_id: string; type: string; data: string }[] = await trx("outbox")
    .whereIn("id", ids)
    .orderBy("id")
    .select("id", "organization_id", "type", trx.raw("(payload -> 'data')::text as data"));
  return rows.map((r) => Object.assign({}, r, { id: Number(r.id) }));
}
