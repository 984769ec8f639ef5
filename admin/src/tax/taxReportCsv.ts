// The tax report's amount columns, and the report as CSV (an EU OSS return's lines).
import type { TaxReport as Report, TaxReportRow } from "../api";
import { toCsv } from "../common/csv";
import { toMajor } from "../common/format";

export const percent = (basisPoints: number) => `${Number((basisPoints / 100).toFixed(2))}%`;

export const AMOUNTS: { key: keyof TaxReportRow; label: string }[] = [
  { key: "sales_net_amount", label: "Net sales" },
  { key: "sales_tax_amount", label: "Tax charged" },
  { key: "refunded_net_amount", label: "Net refunded" },
  { key: "refunded_tax_amount", label: "Tax refunded" },
  { key: "net_amount", label: "Taxable amount" },
  { key: "tax_amount", label: "Tax due" },
];

/** The report as CSV: one line per period and row, amounts in major units beside their currency. */
export function reportCsv(report: Report): string {
  const header = [
    "period",
    "start_date",
    "end_date",
    "currency",
    "country",
    "state",
    "rate_percent",
    "display_name",
    "taxability_reason",
    "orders",
    "refunds",
    ...AMOUNTS.map((a) => a.key),
  ];
  const rows = report.periods.flatMap((p) =>
    p.rows.map((r) => [
      p.period,
      p.start_date,
      p.end_date,
      r.currency.toUpperCase(),
      r.country ?? "",
      r.state ?? "",
      String(r.rate_basis_points / 100),
      r.display_name ?? "",
      r.taxability_reason ?? "",
      String(r.orders),
      String(r.refunds),
      ...AMOUNTS.map((a) => String(toMajor(Number(r[a.key]), r.currency))),
    ]),
  );
  return toCsv(header, rows);
}
