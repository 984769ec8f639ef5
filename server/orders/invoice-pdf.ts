// A small PDF 1.4 writer for invoices: one A4 page of text in the standard Helvetica fonts
// (WinAnsi), a content stream and a real cross-reference table. No PDF library is installed, and
// an invoice needs nothing more than positioned lines of text and a few rules.

export interface InvoiceLine {
  label: string;
  amount: number;
  taxAmount: number;
}

export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  seller: { name: string; email: string | null };
  billTo: { name: string; email: string; address: string[] };
  currency: string;
  lines: InvoiceLine[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  refunded: number;
}

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 56;

/** Minor units → a display amount in the record's own currency (a PDF is a UI edge). */
export function formatMoney(amount: number, currency: string): string {
  const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
  return fmt.format(amount / 10 ** digits);
}

/** A PDF literal string in WinAnsi: Latin-1 kept, anything else replaced, delimiters escaped. */
function pdfString(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const c = code >= 0x20 && code <= 0xff && code !== 0x7f ? ch : "?";
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

/** Renders the invoice and returns the bytes of a complete PDF file. */
export function renderInvoicePdf(doc: InvoiceDocument): Buffer {
  const page = new Page();
  const right = PAGE_W - MARGIN;
  const money = (n: number) => formatMoney(n, doc.currency);
  let y = PAGE_H - MARGIN - 10;

  page.text(MARGIN, y, "Invoice", { size: 22, bold: true });
  page.text(right, y, doc.seller.name, { size: 12, bold: true, right: true });
  y -= 28;
  page.text(MARGIN, y, `Invoice number: ${doc.number}`);
  if (doc.seller.email) page.text(right, y, doc.seller.email, { right: true });
  y -= 14;
  page.text(MARGIN, y, `Date of issue: ${doc.issuedAt.toISOString().slice(0, 10)}`);
  y -= 32;

  page.text(MARGIN, y, "Bill to", { bold: true });
  y -= 14;
  for (const line of [doc.billTo.name, ...doc.billTo.address, doc.billTo.email]) {
    page.text(MARGIN, y, line);
    y -= 14;
  }
  y -= 18;

  page.text(MARGIN, y, "Description", { bold: true });
  page.text(right - 110, y, "Tax", { bold: true, right: true });
  page.text(right, y, "Amount", { bold: true, right: true });
  y -= 8;
  page.rule(y);
  y -= 16;
  for (const line of doc.lines) {
    page.text(MARGIN, y, line.label.length > 70 ? `${line.label.slice(0, 67)}...` : line.label);
    page.text(right - 110, y, money(line.taxAmount), { right: true });
    page.text(right, y, money(line.amount), { right: true });
    y -= 16;
  }
  page.rule(y + 6);
  y -= 12;

  const totals: [string, number, boolean][] = [
    ["Subtotal", doc.subtotal, false],
    ...(doc.discount ? ([["Discount", -doc.discount, false]] as [string, number, boolean][]) : []),
    ["Tax", doc.tax, false],
    ["Total", doc.total, true],
    ...(doc.refunded ? ([["Refunded", -doc.refunded, false]] as [string, number, boolean][]) : []),
  ];
  for (const [label, amount, bold] of totals) {
    page.text(right - 160, y, label, { bold });
    page.text(right, y, money(amount), { bold, right: true });
    y -= 16;
  }

  return writePdf(page.ops.join("\n"), { Title: `Invoice ${doc.number}`, Producer: "Borealis" });
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
    `<< ${Object.entries(info).map(([k, v]) => `/${k} ${pdfString(v)}`).join(" ")} >>`,
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
