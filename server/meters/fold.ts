// Folds ingested events into the per-customer rollups, behind ingestion: one transaction takes, in
// id order and chunks, the events of finished transactions above the last fold's mark, adds them
// per meter, customer and day, and moves the mark. Readers add the events above the mark
// themselves (usage.ts), so a late fold costs a little speed, never correctness. The worker runs
// it every second; a second folder finds the mark's row locked and leaves.
import type { Knex } from "knex";
import { countEventsIn, foldChunkBound, organizationEventsIn, organizationsWithEventsIn } from "./events-repository.js";
import { ofOrganizationById } from "./repository.js";
import { hasRollups } from "./rollups.js";
import { addFoldedCustomerMeters } from "./customer-meters-repository.js";
import { addRollups, claimFoldMark, lockUsageShared, matchedCustomersSql, setFoldedBelow } from "./rollups-repository.js";

export const DEFAULT_FOLD_CHUNK = 50_000;

/** Folds one chunk; the number of events folded, or null when another folder holds the mark. */
async function foldChunk(knex: Knex, chunk: number): Promise<number | null> {
  return knex.transaction(async (trx) => {
    const state = await claimFoldMark(trx);
    if (!state) return null;
    if (state.caught_up) return 0;
    // The chunk ends after its last event's transaction (all of that transaction's events go in).
    const head = await foldChunkBound(trx, state.mark, state.horizon, chunk);
    if (head.n === 0) {
      await setFoldedBelow(trx, state.horizon);
      return 0;
    }
    const upper = head.n < chunk ? state.horizon : head.after_last!;
    const orgs = await organizationsWithEventsIn(trx, state.mark, upper);
    for (const org of orgs) {
      await lockUsageShared(trx, org);
      const meters = await ofOrganizationById(trx, org);
      const source = organizationEventsIn(org, state.mark, upper);
      for (const meter of meters.filter(hasRollups)) await addRollups(trx, meter, source, "customers");
      if (meters.length)
        await addFoldedCustomerMeters(
          trx,
          org,
          meters.map((m) => matchedCustomersSql(m, source)),
        );
    }
    const folded = await countEventsIn(trx, state.mark, upper);
    await setFoldedBelow(trx, upper);
    return folded;
  });
}

/** Folds everything foldable now, chunk by chunk; the number of events folded. */
export async function foldUsage(knex: Knex, opts: { chunk?: number } = {}): Promise<number> {
  const chunk = opts.chunk ?? DEFAULT_FOLD_CHUNK;
  let total = 0;
  for (;;) {
    const n = await foldChunk(knex, chunk);
    if (n === null || n === 0) return total;
    total += n;
    if (n < chunk) return total;
  }
}
