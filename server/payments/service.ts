// Payments: recorded by the checkout confirm flow and order payment retries (inside their
// transaction), read and listed by the merchant.
import type { Knex } from "knex";
import { ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { toPayment, type PaymentOut } from "./models.js";
import {
  findReadable,
  insertPayment,
  readable,
  whereCustomers,
  wherePayerEmails,
  type PaymentRow,
  type PaymentTrigger,
} from "./repository.js";
import { jsonb } from "../kit/db.js";
import { checkoutOfCustomers, checkoutOfPayerEmails } from "../checkouts/repository.js";
import type { ChargeResult } from "../processors/processor.js";

export interface RecordPaymentInput {
  organizationId: string;
  orderId: string | null;
  checkoutId: string | null;
  processor: "stripe";
  status: PaymentRow["status"];
  amount: number;
  currency: string;
  method: "card";
  methodMetadata: { brand: string; last4: string } | null;
  declineReason: string | null;
  declineMessage: string | null;
  processorMetadata: Record<string, unknown>;
  processorRef: string | null;
  trigger: PaymentTrigger;
}

export async function recordPayment(trx: Knex.Transaction, input: RecordPaymentInput): Promise<PaymentRow> {
  return insertPayment(trx, {
    organization_id: input.organizationId,
    order_id: input.orderId,
    checkout_id: input.checkoutId,
    processor: input.processor,
    status: input.status,
    amount: input.amount,
    currency: input.currency,
    method: input.method,
    method_metadata: input.methodMetadata ? jsonb(trx, input.methodMetadata) : null,
    decline_reason: input.declineReason,
    decline_message: input.declineMessage,
    processor_metadata: jsonb(trx, input.processorMetadata ?? {}),
    processor_ref: input.processorRef,
    trigger: input.trigger,
  });
}

/** A charge of a saved card for an order (a renewal, a retry, a finalized draft), succeeded or declined. */
export async function recordCharge(
  trx: Knex.Transaction,
  charge: Pick<RecordPaymentInput, "organizationId" | "orderId" | "amount" | "currency" | "processorMetadata" | "trigger">,
  result: ChargeResult,
): Promise<PaymentRow> {
  const declined = result.status === "declined" ? result : null;
  return recordPayment(
    trx,
    Object.assign({}, charge, {
      checkoutId: null,
      processor: "stripe" as const,
      status: declined ? ("failed" as const) : ("succeeded" as const),
      method: "card" as const,
      methodMetadata: result.card,
      declineReason: declined?.code ?? null,
      declineMessage: declined?.message ?? null,
      processorRef: result.paymentRef,
    }),
  );
}

export async function getPayment(db: Knex, scope: { organizationId: string }, id: string): Promise<PaymentOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Payment not found.");
  return toPayment(row);
}

export interface PaymentListQuery {
  organization_id?: string | string[] | null;
  checkout_id?: string | string[] | null;
  order_id?: string | string[] | null;
  customer_id?: string | string[] | null;
  status?: string | string[] | null;
  method?: string | string[] | null;
  customer_email?: string | string[] | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
}

export async function listPayments(db: Knex, scope: { organizationId: string }, query: PaymentListQuery): Promise<Page<PaymentOut>> {
  const q = readable(db, scope).select("payments.*");
  for (const key of ["organization_id", "checkout_id", "order_id"] as const) {
    const ids = asList(query[key]);
    if (ids.length) q.whereIn(`payments.${key}`, ids.filter(isUuid));
  }
  const customers = asList(query.customer_id).filter(isUuid);
  if (customers.length) whereCustomers(db, q, customers, checkoutOfCustomers);
  const statuses = asList(query.status);
  if (statuses.length) q.whereIn("payments.status", statuses);
  const methods = asList(query.method);
  if (methods.length) q.whereIn("payments.method", methods);
  const emails = asList(query.customer_email).map((e) => e.trim().toLowerCase());
  // The payer: the customer of the payment's order, or of its checkout (a declined checkout has no order).
  if (emails.length) wherePayerEmails(db, q, emails, checkoutOfPayerEmails);
  applySorting(
    q,
    query.sorting,
    { created_at: "payments.created_at", status: "payments.status", amount: "payments.amount", method: "payments.method" },
    ["-created_at"],
    "payments.id",
  );
  return listPage(q, query, (rows: PaymentRow[]) => rows.map(toPayment));
}
