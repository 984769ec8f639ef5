// CSV export of what a list's filter shows: every matching record (paged on the server, 100 at a
// time, by the data provider), nested objects flattened to dotted columns, custom-field values as one column per field
// (polar#8692: Polar's export drops them), money as decimal amounts beside their currency.
import type { Exporter, RaRecord } from "react-admin";
import { toMajor } from "./format";

const MONEY =
  /(^|_)(amount|price_amount|subtotal_amount|total_amount|net_amount|tax_amount|discount_amount|refunded_amount|refunded_tax_amount|minimum_amount|maximum_amount|preset_amount)$/;

function flatten(prefix: string, value: unknown, out: Record<string, string>, currency: string | undefined): void {
  if (value === null || value === undefined) {
    out[prefix] = "";
  } else if (Array.isArray(value)) {
    out[prefix] = value.every((v) => typeof v !== "object" || v === null) ? value.join(" ") : JSON.stringify(value);
  } else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out, currency);
  } else if (typeof value === "number" && currency && MONEY.test(prefix.split(".").pop() ?? "")) {
    out[prefix] = String(toMajor(value, currency));
  } else {
    out[prefix] = String(value);
  }
}

export function toRows(records: RaRecord[], columns?: string[]): { header: string[]; rows: string[][] } {
  const flat = records.map((r) => {
    const out: Record<string, string> = {};
    const currency = typeof r.currency === "string" ? r.currency : undefined;
    for (const [k, v] of Object.entries(r)) {
      if (columns && !columns.some((c) => c === k || c.startsWith(`${k}.`))) continue;
      flatten(k, v, out, currency);
    }
    return out;
  });
  const header: string[] = [];
  const seen = new Set<string>();
  const add = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    header.push(k);
  };
  // the chosen columns, then what nested objects among them flatten into (custom_field_data.<slug>)
  for (const c of columns ?? []) add(c);
  for (const row of flat) for (const k of Object.keys(row)) if (!columns || columns.some((c) => k.startsWith(`${c}.`))) add(k);
  return { header, rows: flat.map((row) => header.map((h) => row[h] ?? "")) };
}

export function toCsv(header: string[], rows: string[][]): string {
  const cell = (v: string) =>
    /[",\n\r]/.test(v) || /^[=+\-@]/.test(v) ? `"${(/^[=+\-@]/.test(v) ? `'${v}` : v).replace(/"/g, '""')}"` : v;
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

export function download(filename: string, text: string): void {
  const blob = new Blob([text], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * An exporter for a list. react-admin's export button asks the data provider for every record the
 * list's filter matches (the data provider pages through the server 100 at a time; `EXPORT_MAX`
 * at most), and this writes `columns` first (dotted paths into the record), then every custom-field
 * value (`custom_field.<slug>`).
 */
export const EXPORT_MAX = 10_000;

export function csvExporter(resource: string, columns: string[]): Exporter {
  return (records: RaRecord[]) => {
    const { header, rows } = toRows(records, [...columns, "custom_field_data"]);
    download(
      `${resource}-${new Date().toISOString().slice(0, 10)}.csv`,
      toCsv(
        header.map((h) => h.replace(/^custom_field_data\./, "custom_field.")),
        rows,
      ),
    );
  };
}
