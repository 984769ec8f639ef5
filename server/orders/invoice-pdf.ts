// A small PDF 1.4 writer for invoices: one A4 page of text in the standard Helvetica fonts
// (WinAnsi), a content stream and a real cross-reference table. No PDF library is installed, and
// an invoice needs nothing more than positioned lines of text and a few rules.

export interface InvoiceLine {
  label: string;
  /** Before tax. */
  amount: number;
  taxAmount: number;
  /** The line's rate as printed ("20%"), null when no tax was computed. */
  rate: string | null;
}

export interface InvoiceParty {
  name: string;
  address: string[];
  email: string | null;
  /** As printed: "VAT ID: FR40303265045". */
  taxId: string | null;
}

export interface InvoiceDocument {
  /** An invoice (the default), or the receipt of its payment. */
  kind?: "Invoice" | "Receipt";
  /** The invoice's number, or the receipt's. */
  number: string;
  /** A receipt's invoice number. */
  invoiceNumber?: string;
  /** The invoice's date of issue, or the receipt's date paid. */
  issuedAt: Date;
  seller: InvoiceParty;
  billTo: InvoiceParty;
  currency: string;
  lines: InvoiceLine[];
  subtotal: number;
  discount: number;
  /** The tax's label in the totals: "VAT 20% (France)", "Reverse charge", "Tax". */
  taxLabel: string;
  tax: number;
  total: number;
  refunded: number;
  /** The reverse-charge legend is printed. */
  reverseCharge: boolean;
}

export const REVERSE_CHARGE_LEGEND = "Reverse charge: VAT to be accounted for by the recipient, Article 196 Council Directive 2006/112/EC";

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 56;

/** Minor units → a display amount in the record's own currency (a PDF is a UI edge). */
export function formatMoney(amount: number, currency: string): string {
  const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(amount / 10 ** digits);
}

// WinAnsi's characters at 0x80–0x9F, where Latin-1 has control codes (the euro sign among them;
// "_" marks the five codes WinAnsi leaves undefined).
const WIN_ANSI_EXTRA = new Map(
  [..."€_‚ƒ„…†‡ˆ‰Š‹Œ_Ž__‘’“”•–—˜™š›œ_žŸ"].flatMap((ch, i): [string, string][] => (ch === "_" ? [] : [[ch, String.fromCharCode(0x80 + i)]])),
);

/** A PDF literal string in WinAnsi: Latin-1 and WinAnsi's extra characters kept, anything else replaced, delimiters escaped. */
function pdfString(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const c = WIN_ANSI_EXTRA.get(ch) ?? (code >= 0x20 && code <= 0xff && code !== 0x7f && (code < 0x80 || code > 0x9f) ? ch : "?");
    out += c === "(" || c === ")" || c === "\\" ? `\\${c}` : c;
  }
  return `(${out})`;
}

// Helvetica's advance widths would be exact; an average is enough to right-align amounts.
const approxWidth = (text: string, size: number) => text.length * size * 0.5;

class Page {
  readonly ops: string[] = [];
  text(x: number, y: number, text: string, opts: { size?: number; bold?: boolean; right?: boolean } = {}) {
    const size = opts.size ?? 10;
    const left = opts.right ? x - approxWidth(text, size) : x;
    this.ops.push(`BT /${opts.bold ? "F2" : "F1"} ${size} Tf ${left.toFixed(2)} ${y.toFixed(2)} Td ${pdfString(text)} Tj ET`);
  }
  rule(y: number) {
    this.ops.push(`0.8 G 0.5 w ${MARGIN} ${y} m ${PAGE_W - MARGIN} ${y} l S 0 G`);
  }
}

/** A party's printed lines: name, address, tax id, email (what it has of them). */
function partyLines(p: InvoiceParty): string[] {
  return [p.name, ...p.address, p.taxId, p.email].filter((l): l is string => !!l);
}

/** Renders the invoice and returns the bytes of a complete PDF file. */
export function renderInvoicePdf(doc: InvoiceDocument): Buffer {
  const page = new Page();
  const right = PAGE_W - MARGIN;
  const money = (n: number) => formatMoney(n, doc.currency);
  let y = PAGE_H - MARGIN - 10;

  const kind = doc.kind ?? "Invoice";
  const day = doc.issuedAt.toISOString().slice(0, 10);
  page.text(MARGIN, y, kind, { size: 22, bold: true });
  page.text(right, y, doc.seller.name, { size: 12, bold: true, right: true });
  y -= 28;
  const header =
    kind === "Receipt"
      ? [`Receipt number: ${doc.number}`, `Invoice number: ${doc.invoiceNumber ?? ""}`, `Date paid: ${day}`]
      : [`Invoice number: ${doc.number}`, `Date of issue: ${day}`];
  const sellerLines = partyLines(doc.seller).slice(1);
  for (let i = 0; i < Math.max(header.length, sellerLines.length); i++) {
    if (header[i]) page.text(MARGIN, y, header[i]);
    if (sellerLines[i]) page.text(right, y, sellerLines[i], { right: true });
    y -= 14;
  }
  y -= 18;

  page.text(MARGIN, y, "Bill to", { bold: true });
  y -= 14;
  for (const line of partyLines(doc.billTo)) {
    page.text(MARGIN, y, line);
    y -= 14;
  }
  y -= 18;

  const rateX = right - 190;
  const taxX = right - 100;
  page.text(MARGIN, y, "Description", { bold: true });
  page.text(rateX, y, "Rate", { bold: true, right: true });
  page.text(taxX, y, "Tax", { bold: true, right: true });
  page.text(right, y, "Amount", { bold: true, right: true });
  y -= 8;
  page.rule(y);
  y -= 16;
  for (const line of doc.lines) {
    page.text(MARGIN, y, line.label.length > 50 ? `${line.label.slice(0, 47)}...` : line.label);
    if (line.rate !== null) page.text(rateX, y, line.rate, { right: true });
    page.text(taxX, y, money(line.taxAmount), { right: true });
    page.text(right, y, money(line.amount), { right: true });
    y -= 16;
  }
  page.rule(y + 6);
  y -= 12;

  const totals: [string, number, boolean][] = [["Subtotal", doc.subtotal, false]];
  if (doc.discount) totals.push(["Discount", -doc.discount, false], ["Net", doc.subtotal - doc.discount, false]);
  totals.push([doc.taxLabel, doc.tax, false], [kind === "Receipt" ? "Amount paid" : "Total", doc.total, true]);
  if (doc.refunded) totals.push(["Refunded", -doc.refunded, false]);
  for (const [label, amount, bold] of totals) {
    page.text(right - 200, y, label, { bold });
    page.text(right, y, money(amount), { bold, right: true });
    y -= 16;
  }
  if (doc.reverseCharge) {
    y -= 12;
    page.text(MARGIN, y, REVERSE_CHARGE_LEGEND, { size: 8 });
  }

  return writePdf(page.ops.join("\n"), { Title: `${kind} ${doc.number}`, Producer: "Borealis" });
}

/** Assembles the objects, the xref table with each object's byte offset, and the trailer. */
function writePdf(content: string, info: Record<string, string>): Buffer {
  const stream = Buffer.from(content, "latin1");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${stream.length} >>\nstream\n${stream.toString("latin1")}\nendstream`,
    `<< ${Object.entries(info)
      .map(([k, v]) => `/${k} ${pdfString(v)}`)
      .join(" ")} >>`,
  ];
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, "latin1");
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>`,
    "startxref",
    String(offset),
    "%%EOF",
    "",
  ].join("\n");
  chunks.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(chunks);
}
