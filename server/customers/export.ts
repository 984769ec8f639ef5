// The customers export (customers:export): every live customer as a CSV row, oldest first, with
// Polar's columns.
import type { Knex } from "knex";
import type { OpQuery } from "../../generated/handlers.js";
import { csvFile } from "../kit/csv.js";
import { asList } from "../kit/ids.js";
import { checkTimeZone, zonedIso } from "../kit/timezones.js";
import { ADDRESS_LINE_COLUMNS, addressLineCells } from "./address.js";
import { customersOldestFirst, type OrganizationScope } from "./repository.js";

const COLUMNS = [
  "ID",
  "External ID",
  "Created At",
  "Email",
  "Name",
  "Tax ID",
  ...ADDRESS_LINE_COLUMNS,
  "Billing Address Country",
  "Metadata",
];

export async function exportCustomers(db: Knex, scope: OrganizationScope, query: OpQuery<"customers:export">): Promise<string> {
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const rows = await customersOldestFirst(db, scope, asList(query.organization_id));
  return csvFile(
    COLUMNS,
    rows.map((c) => [
      c.id,
      c.external_id,
      zonedIso(tz, c.created_at),
      c.email,
      c.name,
      c.tax_id?.[0],
      ...addressLineCells(c.billing_address),
      c.billing_address?.country,
      Object.keys(c.metadata).length ? JSON.stringify(c.metadata) : null,
    ]),
  );
}
