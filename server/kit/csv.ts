// The CSV files the exports answer: RFC 4180 with CRLF line ends, a header row, and cells a
// spreadsheet will not run as formulas.
export type CsvValue = string | number | boolean | null | undefined;

/** Quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The header row, then one line per row, each line ended by CRLF. */
export function csvFile(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((cells) => cells.map(csvCell).join(",") + "\r\n").join("");
}
