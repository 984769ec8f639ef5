// Order invoices. Generation is asynchronous: the API checks the order can have an invoice and
// starts the invoice workflow (id `invoice:<orderId>`); its activities take the next number of
// the organization's counter (row locked FOR UPDATE, committed with the order, so numbers are
// gapless and unique), render the PDF and store it. The GET hands out a signed download URL.
// A paid order's receipt is rendered and stored on its first request.
import path from "node:path";
import type { Knex } from "knex";
import { findCustomer } from "../customers/repository.js";
import type { CustomerRow } from "../customers/repository.js";
import type { Address } from "../customers/address.js";
import { ResourceNotFound } from "../kit/errors.js";
import { emit } from "../kit/outbox.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { getStorage, PRESIGN_TTL_SECONDS } from "../files/storage.js";
import { InvoiceAlreadyExists, MissingInvoiceBillingDetails, NotPaidOrder } from "./errors.js";
import { renderInvoicePdf, type InvoiceDocument } from "./invoice-pdf.js";
import { workflowsDoor } from "../workflows-door.js";
import { isUnpaid, netAmount, totalAmount } from "./models.js";
import { paidAtOf } from "../payments/repository.js";
import { findOrder, findReadable, orderItems, saveOrder, type OrderRow, type OrderScope } from "./repository.js";
import { readOrder, type OrderDependents } from "./service.js";

/** Checks the order can get an invoice, then starts (or joins) its invoice workflow. */
export async function requestInvoice(db: Knex, scope: OrderScope, orderId: string): Promise<null> {
  const order = await findReadable(db, scope, orderId);
  if (!order) throw new ResourceNotFound("Order not found.");
  if (order.is_invoice_generated) throw new InvoiceAlreadyExists("An invoice already exists for this order.");
  if (isUnpaid(order.status)) throw new NotPaidOrder("The order is not paid.");
  if (!order.billing_name || !order.billing_address) {
    throw new MissingInvoiceBillingDetails("Billing name and address are required to generate an invoice.");
  }
  await workflowsDoor().startInvoice(order.id);
  return null;
}

export async function getInvoiceUrl(db: Knex, scope: OrderScope, orderId: string): Promise<{ url: string }> {
  const order = await findReadable(db, scope, orderId);
  if (!order) throw new ResourceNotFound("Order not found.");
  if (!order.is_invoice_generated || !order.invoice_path) throw new ResourceNotFound("The invoice is not generated yet.");
  const filename = path.posix.basename(order.invoice_path);
  const url = await getStorage().presignDownload(order.invoice_path, {
    filename,
    mimeType: "application/pdf",
    expiresAt: new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000),
  });
  return { url };
}

/** What an order's invoice or receipt prints: its seller, buyer, lines and totals. */
async function documentOf(
  trx: Knex,
  order: OrderRow,
  org: OrganizationRow,
  head: Pick<InvoiceDocument, "kind" | "number" | "invoiceNumber" | "issuedAt">,
): Promise<InvoiceDocument> {
  const customer = (await findCustomer(trx, order.customer_id)) as CustomerRow;
  const items = await orderItems(trx, order.id);
  const seller = org.seller_details;
  const rate = order.tax_rate ? formatRate(order.tax_rate.basis_points) : null;
  return Object.assign({}, head, {
    seller: {
      name: seller?.name ?? org.name,
      address: addressLines(seller?.address ?? null),
      email: org.email,
      taxId: taxIdLine(seller?.tax_id ?? null),
    },
    billTo: {
      name: order.billing_name ?? customer.name ?? customer.email,
      address: addressLines(order.billing_address),
      email: customer.email,
      taxId: taxIdLine(order.customer_tax_id),
    },
    currency: order.currency,
    lines: items.map((i) => ({ label: i.label, amount: i.amount, taxAmount: i.tax_amount, rate })),
    subtotal: order.subtotal_amount,
    discount: order.discount_amount,
    taxLabel: order.tax_rate?.display_name ?? "Tax",
    tax: order.tax_amount,
    total: totalAmount(order),
    refunded:
      order.refunded_amount > 0 && order.refunded_amount <= netAmount(order) ? order.refunded_amount + order.refunded_tax_amount : 0,
    reverseCharge: order.taxability_reason === "reverse_charge",
  });
}

/**
 * A presigned URL of a paid order's receipt, rendered and stored on the first request (the order
 * as it was paid: a later refund is the invoice's and the refund's, not the receipt's).
 */
export async function getReceiptUrl(db: Knex, scope: OrderScope, orderId: string): Promise<{ url: string }> {
  const found = await findReadable(db, scope, orderId);
  if (!found) throw new ResourceNotFound("Order not found.");
  if (found.receipt_number === null) throw new ResourceNotFound("No receipt allocated for this order: it is not paid.");
  const key = found.receipt_path ?? (await storeReceipt(db, found.id));
  const url = await getStorage().presignDownload(key, {
    filename: path.posix.basename(key),
    mimeType: "application/pdf",
    expiresAt: new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000),
  });
  return { url };
}

async function storeReceipt(db: Knex, orderId: string): Promise<string> {
  return db.transaction(async (trx) => {
    const order = (await findOrder(trx, orderId, { forUpdate: true }))!;
    if (order.receipt_path) return order.receipt_path;
    const org = (await findOrganization(trx, order.organization_id)) as OrganizationRow;
    const receipt = order.receipt_number!;
    const paidAt = (await paidAtOf(trx, order.id)) ?? order.created_at;
    const doc = await documentOf(trx, order, org, {
      kind: "Receipt",
      number: receipt,
      invoiceNumber: order.invoice_number ?? "",
      issuedAt: paidAt,
    });
    const key = `${order.organization_id}/receipts/${order.id}/Receipt-${receipt}.pdf`;
    await getStorage().putObject(key, renderInvoicePdf(Object.assign(doc, { refunded: 0 })), "application/pdf");
    await saveOrder(trx, order.id, { receipt_path: key });
    return key;
  });
}

function addressLines(a: Address | null): string[] {
  if (!a) return [];
  return [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.state, a.country].filter((l): l is string => !!l);
}

/** "VAT ID: FR40303265045" for a VAT number, "Tax ID: …" for any other type. */
function taxIdLine(taxId: [string, string] | null): string | null {
  if (!taxId) return null;
  return `${/_vat$/.test(taxId[1]) ? "VAT ID" : "Tax ID"}: ${taxId[0]}`;
}

/** Basis points as a printed rate: 2000 → "20%", 550 → "5.5%". */
export function formatRate(basisPoints: number): string {
  return `${Number((basisPoints / 100).toFixed(2))}%`;
}

/** The invoice activity: renders and stores the PDF, then marks the order's invoice generated. Idempotent. */
export async function storeInvoice(db: Knex, orderId: string, dependents: OrderDependents): Promise<{ number: string; path: string }> {
  return db.transaction(async (trx) => {
    const order = await findOrder(trx, orderId, { forUpdate: true });
    if (!order) throw new ResourceNotFound("Order not found.");
    const org = (await findOrganization(trx, order.organization_id)) as OrganizationRow;
    const number = order.invoice_number;
    if (number === null) throw new NotPaidOrder("A draft order has no invoice.");
    if (order.is_invoice_generated && order.invoice_path) return { number, path: order.invoice_path };
    const pdf = renderInvoicePdf(await documentOf(trx, order, org, { number, issuedAt: new Date() }));
    const key = `${order.organization_id}/invoices/${order.id}/Invoice-${number}.pdf`;
    await getStorage().putObject(key, pdf, "application/pdf");
    const updated = await saveOrder(trx, order.id, { is_invoice_generated: true, invoice_path: key, modified_at: new Date() });
    await emit(trx, order.organization_id, "order.updated", await readOrder(trx, updated, dependents));
    return { number, path: key };
  });
}
