// A rendered PDF's text, for tests that read what an invoice prints (server/orders/invoice-pdf.ts
// draws each string with one `BT … Td (…) Tj ET`).

/** The PDF's text as rows: the strings drawn at one height, left to right, joined by " | ". */
export function pdfRows(bytes: Buffer): string[] {
  const text = bytes.toString("latin1");
  const ops = [...text.matchAll(/BT \/F\d [\d.]+ Tf ([\d.]+) ([\d.]+) Td \(((?:\\.|[^\\)])*)\) Tj ET/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    // WinAnsi's 0x80 is the euro sign.
    s: m[3].replace(/\\(.)/g, "$1").replace(/\x80/g, "€"),
  }));
  const ys = [...new Set(ops.map((o) => o.y))].sort((a, b) => b - a);
  return ys.map((y) =>
    ops
      .filter((o) => o.y === y)
      .sort((a, b) => a.x - b.x)
      .map((o) => o.s)
      .join(" | "),
  );
}
