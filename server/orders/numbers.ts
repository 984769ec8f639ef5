// The printed numbers of an order: its invoice's and its receipt's, each from the organization's
// own gapless sequence (repository.ts's takeNumber).

/** The printed invoice number: the organization's slug and the sequence (`ACME-0007`). */
export function formatInvoiceNumber(slug: string, n: number): string {
  return `${slug.toUpperCase()}-${String(n).padStart(4, "0")}`;
}

/** A receipt's printed number: `RCPT-`, the organization's slug and its own sequence (`RCPT-ACME-0001`). */
export function formatReceiptNumber(slug: string, n: number): string {
  return `RCPT-${formatInvoiceNumber(slug, n)}`;
}
