// The lease a confirm holds on its checkout from its claim to its outcome (docs/RELIABILITY.md):
// an id only its holder knows, valid until a time the database keeps, renewed every third of
// CONFIRM_RECOVERY_AFTER_MS while the charge step runs. Only the holder of the checkout's current
// lease writes its outcome; the worker's recovery (./recover.ts) takes over a checkout whose lease
// lapsed (its process killed, or cut off from the database that long) with a lease of its own.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { setting } from "../config.js";
import { logger } from "../kit/logger.js";
import { renewConfirmLease } from "./repository.js";

/** How long a lease lasts from its last renewal. */
export const leaseMs = (): number => setting("CONFIRM_RECOVERY_AFTER_MS");

export const newLease = (): string => randomUUID();

/** Renews the lease every third of its length until the returned function is called, or it is lost. */
export function keepLease(db: Knex, checkoutId: string, lease: string): () => void {
  const ms = leaseMs();
  let timer: NodeJS.Timeout | undefined;
  let kept = true;
  const renewLater = () => {
    timer = setTimeout(() => {
      renewConfirmLease(db, checkoutId, lease, ms)
        .then(
          (renewed) => {
            // Not renewed after the outcome was written (released meanwhile): nothing to say.
            if (!renewed && kept) {
              kept = false;
              logger.warn({ checkoutId }, "a confirm's lease lapsed before its outcome; the recovery may take the checkout over");
            }
          },
          (err: unknown) => logger.warn({ err, checkoutId }, "a confirm's lease could not be renewed; tried again"),
        )
        .finally(() => {
          if (kept) renewLater();
        });
    }, ms / 3);
    timer.unref();
  };
  renewLater();
  return () => {
    kept = false;
    clearTimeout(timer);
  };
}
