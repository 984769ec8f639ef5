// The activities of the worker's periodic Schedules (workflows/schedules.ts): each runs one pass of
// a sweep the worker hands in (workflows/worker.ts). A pass that fails is logged and the next one
// runs on time: the database stays the source of truth, nothing is lost by a missed pass.
import type { Logger } from "../../server/kit/logger.js";

/** One pass of each periodic job. */
export interface PeriodicPasses {
  /** Starts what should be running and is not (workflows/backstop.ts). */
  sweepBackstop(): Promise<void>;
  /** Settles the checkouts whose confirm died after its claim; how many. */
  recoverConfirms(): Promise<number>;
  /** Folds ingested events into the per-customer meter rollups. */
  foldUsage(): Promise<unknown>;
  /** Deletes one batch of expired idempotency keys; how many (0: none left). */
  deleteExpiredKeys(): Promise<number>;
}

export function createPeriodicActivities(passes: PeriodicPasses, logger: Logger) {
  const logged = async <T>(what: string, pass: () => Promise<T>): Promise<T | null> => {
    try {
      return await pass();
    } catch (err) {
      logger.warn({ err }, `${what} failed; it runs again on its Schedule`);
      return null;
    }
  };
  return {
    async sweepBackstop(): Promise<void> {
      await logged("backstop sweep", passes.sweepBackstop);
    },
    async recoverConfirms(): Promise<number> {
      return (await logged("confirm recovery", passes.recoverConfirms)) ?? 0;
    },
    async foldUsage(): Promise<void> {
      await logged("usage fold", passes.foldUsage);
    },
    async deleteExpiredIdempotencyKeys(): Promise<number> {
      return (
        (await logged("idempotency key clean-up", async () => {
          let deleted = 0;
          for (let n = await passes.deleteExpiredKeys(); n > 0; n = await passes.deleteExpiredKeys()) deleted += n;
          return deleted;
        })) ?? 0
      );
    },
  };
}

export type PeriodicActivities = ReturnType<typeof createPeriodicActivities>;
