// Recovery of confirms that died between their claim and their outcome: the API process killed
// during the processor call, or the database gone when the outcome was to be written. Such a
// checkout stays confirmed (no other confirm can start on it) and its confirm's lease
// (./lease.ts) is no longer renewed. The worker (workflows/worker.ts) looks every few seconds for
// checkouts whose lease lapsed, takes each over with a lease of its own (one statement, so one
// taker), and runs its charge step again: the processor gets the same idempotency key
// (`checkout:<id>:confirm`, with `:<attempt>` after a declined card) and the confirmation token the
// claim kept, so it answers the charge it already made, or makes it now if the first call never
// reached it; the outcome is written as the confirm would have written it, and a confirm still
// running after all (its lease lapsed under it) writes nothing. A checkout waiting for 3-D Secure
// is left to the processor's webhook. The request's Idempotency-Key, if any, is released when the
// outcome is written (its answer could only be encrypted with the caller's key): a retry with it
// then sees the checkout as it is.
import type { Knex } from "knex";
import { releaseRunning } from "../kit/idempotency-repository.js";
import { logger } from "../kit/logger.js";
import { findById as findOrganization } from "../organizations/repository.js";
import { computeFlags, quoteOf } from "./amounts.js";
import { attemptOf, pay, type Claimed } from "./confirm.js";
import { PaymentError } from "./errors.js";
import { leaseMs, newLease } from "./lease.js";
import { lapsedConfirms, takeLapsedConfirm } from "./repository.js";
import { contextOf } from "./service.js";

/** Settles the checkouts whose confirm's lease lapsed with no outcome; answers how many it settled. */
export async function recoverConfirmedCheckouts(db: Knex, opts: { limit?: number } = {}): Promise<number> {
  const rows = await lapsedConfirms(db, opts.limit ?? 50);
  let settled = 0;
  for (const row of rows) {
    try {
      if (await recoverCheckout(db, row.id)) settled++;
    } catch (err) {
      logger.warn({ err, checkoutId: row.id }, "a confirmed checkout could not be settled yet; tried again later");
    }
  }
  return settled;
}

async function recoverCheckout(db: Knex, checkoutId: string): Promise<boolean> {
  const lease = newLease();
  // The attempt is read under the lease: no outcome (a decline adds to it) can be written meanwhile.
  const taken = await db.transaction(async (trx) => {
    const row = await takeLapsedConfirm(trx, checkoutId, lease, leaseMs());
    return row ? { row, attempt: await attemptOf(trx, row.id) } : null;
  });
  // Settled, or taken by another worker, since it was listed.
  if (!taken) return false;
  const { row, attempt } = taken;
  const ctx = await contextOf(db, row);
  const amounts = quoteOf(row);
  const org = (await findOrganization(db, row.organization_id))!;
  const claimed: Claimed = {
    row,
    ctx,
    org,
    amounts,
    flags: computeFlags(ctx.product.row, ctx.price, amounts, row.trial_end ? new Date(row.trial_end) : null),
    token: row.confirmation_token_id,
    attempt,
    lease,
  };
  if (claimed.flags.is_payment_form_required && !claimed.token) {
    logger.error({ checkoutId: row.id }, "a confirmed checkout has no confirmation token to charge with; left for a person");
    return false;
  }
  const release = (trx: Knex.Transaction) => releaseRunning(trx, `checkout:${row.id}`);
  try {
    const outcome = await pay(db, claimed, { done: release, refused: () => release }, { recovering: true });
    if (outcome)
      logger.warn({ checkoutId: row.id, status: outcome.row.status }, "a confirm that died after its claim was settled by the recovery");
    return outcome !== null;
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    logger.warn({ checkoutId: row.id }, "a confirm that died after its claim was declined on recovery");
    return true;
  }
}
