// Lists each statement a repository module starts on another domain's table (`make
// repository-tables`): a statement's main table (Knex builders, kit's row helpers, or the table a
// raw statement writes or reads first) must belong to the module's folder; joins inside a
// statement do not count, and a table in a variable is reported as "?". Exits non-zero on any
// foreign start. Why: every query on a table lives in that table's repository (docs/ARCHITECTURE.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Which server/<folder>/ owns each table (kit owns what every domain shares). */
export const OWNERS: Record<string, string> = {
  ...own(
    "auth",
    "accounts sessions users verifications jwks device_codes invitations teams team_members rate_limits",
    "oauth_access_tokens oauth_refresh_tokens oauth_clients oauth_client_assertions oauth_client_resources oauth_consents oauth_resources",
  ),
  ...own("benefit-grants", "benefit_grants benefit_grant_jobs"),
  ...own("benefits", "benefits"),
  ...own("checkout-links", "checkout_links checkout_link_products"),
  ...own("checkouts", "checkouts checkout_products"),
  ...own("custom-fields", "custom_fields"),
  ...own("customer-sessions", "customer_sessions customer_session_codes customer_session_code_failures customer_email_verifications"),
  ...own("customers", "customers payment_methods processor_customers"),
  ...own("discounts", "discounts discount_products"),
  ...own("disputes", "disputes"),
  ...own("emails", "email_sends"),
  ...own("events", "event_types"),
  ...own("files", "files"),
  ...own("http", "api_rate_limits"),
  ...own("kit", "outbox idempotency_keys"),
  ...own("license-keys", "license_keys license_key_activations"),
  // The usage ledger and what is counted from it; the events and customer meters APIs stand above the meters.
  ...own("meters", "meters meter_rollups usage_fold events event_names customer_meters"),
  ...own("metrics", "metric_dashboards"),
  ...own("orders", "orders order_items invoice_counters"),
  ...own("organization-access-tokens", "organization_access_tokens"),
  ...own("organizations", "organizations members member_notification_mutes"),
  ...own("payments", "payments"),
  ...own("processors", "processed_events"),
  ...own("products", "products product_prices product_benefits product_custom_fields product_medias"),
  ...own("refunds", "refunds"),
  ...own("subscriptions", "subscriptions subscription_prices subscription_meter_billings"),
  ...own("test-clocks", "test_clocks"),
  ...own("webhooks", "webhook_endpoints webhook_events webhook_deliveries organization_notifications"),
  ...own("members", "customer_members"),
  ...own("wallets", "wallets wallet_transactions"),
  ...own("seats", "customer_seats"),
};

function own(folder: string, ...tables: string[]): Record<string, string> {
  return Object.fromEntries(tables.flatMap((t) => t.split(/\s+/)).map((t) => [t, folder]));
}

export type Start = { line: number; table: string };
export type Finding = Start & { file: string; owner: string };

// A connection called as a builder, or one of kit/rows.ts's helpers that start a statement on the table they are given.
const TYPE_ARGS = String.raw`(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?`;
const CONNECTION = String.raw`(?<![\w.$])(?:(?:this\.db|db|trx|knex|tx|t)${TYPE_ARGS}\(|(?:insertReturning|updateReturning|softDeleteRow)${TYPE_ARGS}\(\s*[\w$.]+\s*,)`;
const BUILDER_START = new RegExp(String.raw`${CONNECTION}\s*(?:(["'\`])\s*([a-z_]+)|([A-Za-z_$][\w$.]*)\s*[),])`, "g");
const RAW_START = new RegExp(String.raw`\.raw${TYPE_ARGS}\(\s*(["'\`])\s*(insert\s+into|update|delete\s+from|select|with)\s`, "gi");
// The tables a statement with common table expressions writes (each data-modifying one, and the main statement's).
const WRITES = /\b(?:insert\s+into|delete\s+from)\s+([a-z_]+)|\bupdate\s+([a-z_]+)\s+set\b/gi;

/** The tables the statements in `text` start from, with their lines ("?" for a table given as a variable). */
export function tableStarts(text: string): Start[] {
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const starts: Start[] = [];
  for (const m of text.matchAll(BUILDER_START)) {
    starts.push({ line: lineOf(m.index!), table: m[2] ?? "?" });
  }
  for (const m of text.matchAll(RAW_START)) {
    const rest = text.slice(m.index! + m[0].length, text.indexOf(m[1], m.index! + m[0].length));
    const verb = m[2].toLowerCase();
    if (verb === "with") {
      for (const w of rest.matchAll(WRITES)) {
        const table = w[1] ?? w[2];
        if (table in OWNERS) starts.push({ line: lineOf(m.index! + m[0].length + w.index!), table });
      }
      continue;
    }
    const table = verb === "select" ? /\bfrom\s+([a-z_]+)/i.exec(rest)?.[1] : /^\s*([a-z_]+)/i.exec(rest)?.[1];
    if (table && (verb !== "select" || table in OWNERS)) starts.push({ line: lineOf(m.index!), table });
  }
  return starts.sort((a, b) => a.line - b.line);
}

/** The starts in `file` (server/<folder>/…) whose table another folder owns, or no folder, or a variable names. */
export function foreignStarts(file: string, text: string): Finding[] {
  const folder = /^server\/([^/]+)\//.exec(file)?.[1];
  return tableStarts(text)
    .map((s) => ({ ...s, file, owner: OWNERS[s.table] ?? "?" }))
    .filter((s) => s.owner !== folder);
}

/** Every repository module under server/. */
export function repositoryFiles(root = "server"): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((p) => /(^|\/)(repository|[\w-]+-repository)\.ts$/.test(p))
    .map((p) => join(root, p))
    .sort();
}

/** Every foreign start in the repositories under server/. */
export function check(): Finding[] {
  return repositoryFiles().flatMap((file) => foreignStarts(file, readFileSync(file, "utf8")));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const findings = check();
  for (const f of findings) console.log(`${f.file}:${f.line} ${f.table} (owner ${f.owner})`);
  console.log(`${findings.length} foreign start(s) in repositories`);
  if (findings.length) process.exit(1);
}
