// Outbox activities: claim the next batch of committed, unpublished outbox rows and mark them
// published. Several workers (and retries of the same activity) may run this at once: row locks
// taken with SKIP LOCKED hand each row to exactly one claimer, and marking it in the same
// transaction means a retry after a lost response claims the next rows, never the same ones.
import type { Knex } from "knex";

export interface OutboxBatch {
  /** Claimed row ids, ascending. */
  ids: number[];
  /** The event type of each row, in the order of `ids`. */
  types: string[];
}

export function createOutboxActivities({ knex }: { knex: Knex }) {
  return {
    async claimOutboxBatch(limit: number): Promise<OutboxBatch> {
      return knex.transaction(async (trx) => {
        const rows: { id: number | string; type: string }[] = await trx("outbox")
          .select("id", "type")
          .whereNull("published_at")
          .orderBy("id")
          .limit(limit)
          .forUpdate()
          .skipLocked();
        if (rows.length === 0) return { ids: [], types: [] };
        // bigserial: a number where server/kit/db.ts installed its int8 parser, a string otherwise.
        const ids = rows.map((r) => Number(r.id));
        // Webhooks issue: fan each row out to its organization's endpoints (webhook_deliveries)
        // here, in this transaction, so a row is published exactly when its deliveries exist.
        await trx("outbox").whereIn("id", ids).update({ published_at: trx.fn.now() });
        return { ids, types: rows.map((r) => r.type) };
      });
    },
  };
}

export type OutboxActivities = ReturnType<typeof createOutboxActivities>;
