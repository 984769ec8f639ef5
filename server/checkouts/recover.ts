// Recovery of confirms that died between their claim and their outcome: the API process killed
// during the processor call, or the processor's answer lost. Such a checkout stays confirmed (no
// other confirm can start on it). The worker (workflows/worker.ts) looks for checkouts confirmed
// longer than a confirm can take and runs their charge step again: the processor gets the same
// idempotency key (`checkout:<id>:confirm`, with `:<attempt>` after a declined card) and the confirmation token the claim kept, so it
// answers the charge it already made, or makes it now if the first call never reached it; the
// outcome is written as the confirm would have written it. A checkout waiting for 3-D Secure is
// left to the processor's webhook. The request's Idempotency-Key, if any, is released when the
// outcome is written (its answer could only be encrypted with the caller's key): a retry with it
// then sees the checkout as it is.
import type { Knex } from "knex";
import { releaseRunning } from "../kit/idempotency-repository.js";
import { logger } from "../kit/logger.js";
import { findById as findOrganization } from "../organizations/repository.js";
import { computeFlags, quoteOf } from "./amounts.js";
import { attemptOf, pay, type Claimed } from "./confirm.js";
import { PaymentError } from "./errors.js";
import { confirmedBefore, type CheckoutRow } from "./repository.js";
import { contextOf } from "./service.js";

/** Longer than a confirm request may run (its request timeout and the processor's own). */
export const CONFIRM_RECOVERY_AFTER_MS = 2 * 60_000;

/** Settles the checkouts confirmed before `olderThanMs` ago that no outcome reached; answers how many it settled. */
export async function recoverConfirmedCheckouts(db: Knex, opts: { olderThanMs?: number; limit?: number } = {}): Promise<number> {
  const olderThan = new Date(Date.now() - (opts.olderThanMs ?? CONFIRM_RECOVERY_AFTER_MS));
  const rows = await confirmedBefore(db, olderThan, opts.limit ?? 50);
  let settled = 0;
  for (const row of rows) {
    try {
      if (await recoverCheckout(db, row)) settled++;
    } catch (err) {
      logger.warn({ err, checkoutId: row.id }, "a confirmed checkout could not be settled yet; tried again later");
    }
  }
  return settled;
}

async function recoverCheckout(db: Knex, row: CheckoutRow): Promise<boolean> {
  const ctx = await contextOf(db, row);
  const amounts = quoteOf(row);
  const org = (await findOrganization(db, row.organization_id))!;
  const claimed: Claimed = { row, ctx, org, amounts, flags: computeFlags(ctx.product.row, ctx.price, amounts, row.trial_end ? new Date(row.trial_end) : null), token: row.confirmation_token_id, attempt: await attemptOf(db, row.id) };
  if (claimed.flags.is_payment_form_required && !claimed.token) {
    logger.error({ checkoutId: row.id }, "a confirmed checkout has no confirmation token to charge with; left for a person");
    return false;
  }
  const release = (trx: Knex.Transaction) => releaseRunning(trx, `checkout:${row.id}`);
  try {
    const outcome = await pay(db, claimed, { done: release, refused: () => release }, { recovering: true });
    if (outcome) logger.warn({ checkoutId: row.id, status: outcome.row.status }, "a confirm that died after its claim was settled by the recovery");
    return outcome !== null;
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    logger.warn({ checkoutId: row.id }, "a confirm that died after its claim was declined on recovery");
    return true;
  }
}
