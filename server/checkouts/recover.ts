// Recovers confirms that died between claim and outcome (API killed mid-charge, database gone).
// The worker finds confirmed checkouts whose lease (./lease.ts) lapsed, takes each over with its own
// lease and runs the charge step again with the same idempotency key, so the processor answers the
// charge it already made or makes it now. 3-D Secure waits are left to the processor's webhook.
// The request's Idempotency-Key is released when the outcome is written. docs/RELIABILITY.md.
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
