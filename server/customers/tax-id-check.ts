// A customer's tax id confirmed online: VIES for EU VAT ids, HMRC for UK VAT numbers
// (server/tax/registries.ts). The check runs in the worker (workflow `tax-id-check:<customer>`),
// started after the commit that set or changed the tax id (a trigger marks it due, migration 0130);
// an unavailable registry makes it due again after TAX_ID_CHECK_RETRY_MS, for the backstop sweep.
// It never blocks a purchase: checkouts decide reverse charge with the offline check.
import type { Knex } from "knex";
import { setting } from "../config.js";
import { emit } from "../kit/outbox.js";
import { confirmTaxId, registryOf, type RegistryAnswer } from "../tax/registries.js";
import { startTaxIdChecksAfterCommit } from "../workflows-door.js";
import { toCustomer } from "./models.js";
import { liveById, updateCustomerRow, type CustomerRow, type TaxIdCheckStatus } from "./repository.js";

/** After `trx` commits, starts the check of a customer whose tax id was just set or changed. */
export function checkTaxIdAfterCommit(trx: Knex.Transaction, row: Pick<CustomerRow, "id" | "tax_id_check_due_at">): void {
  if (row.tax_id_check_due_at) startTaxIdChecksAfterCommit(trx, [row.id]);
}

/**
 * Checks the customer's tax id with its registry when a check is due and records the answer;
 * idempotent (nothing due: nothing done), and an answer about a tax id changed meanwhile is
 * dropped (the new one is due). Answers the customer's status afterwards.
 */
export async function runTaxIdCheck(
  db: Knex,
  customerId: string,
  confirm: typeof confirmTaxId = confirmTaxId,
): Promise<TaxIdCheckStatus | null> {
  const row = await liveById(db, customerId);
  if (!row?.tax_id || !row.tax_id_check_due_at) return row?.tax_id_check_status ?? null;
  const [value, type] = row.tax_id;
  const service = registryOf(type, value);
  // The network call is made outside the transaction: no row stays locked while a registry answers.
  const answer = service === null ? null : await confirm(service, value);
  return db.transaction(async (trx) => {
    const locked = await liveById(trx, customerId, { forUpdate: true });
    if (!locked || JSON.stringify(locked.tax_id) !== JSON.stringify(row.tax_id)) return locked?.tax_id_check_status ?? null;
    const updated = await updateCustomerRow(trx, customerId, checkColumns(answer));
    if (updated.tax_id_check_status !== locked.tax_id_check_status || answer?.status === "valid") {
      await emit(trx, updated.organization_id, "customer.updated", toCustomer(updated));
    }
    return updated.tax_id_check_status ?? null;
  });
}

/** The columns an answer writes; no registry for the type (null) leaves the id `unchecked`, nothing due. */
function checkColumns(answer: RegistryAnswer | null): Record<string, unknown> {
  if (answer === null) return { tax_id_check_status: "unchecked", tax_id_check_service: null, tax_id_check_due_at: null };
  const retry = answer.status === "unavailable" ? new Date(Date.now() + setting("TAX_ID_CHECK_RETRY_MS")) : null;
  return {
    tax_id_check_status: answer.status,
    tax_id_check_service: answer.service,
    tax_id_check_name: answer.name,
    tax_id_check_address: answer.address,
    tax_id_checked_at: answer.checkedAt,
    tax_id_check_due_at: retry,
  };
}
