// Writes the README's configuration tables from server/config.ts's SETTINGS, between the
// config:begin and config:end markers, so the README names every variable the code reads and no
// other. `make generate` runs it; codegen/check-fresh.sh runs it with --check (exit 1 when stale).
//   tsx codegen/config-docs.ts           rewrite the README's tables
//   tsx codegen/config-docs.ts --check   fail if they are not what the schema says
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AREA_TITLES, SETTINGS, type Area, type Variable } from "../server/config.js";

export const BEGIN = "<!-- config:begin: generated from server/config.ts by codegen/config-docs.ts (make generate); do not edit -->";
export const END = "<!-- config:end -->";
const README = fileURLToPath(new URL("../README.md", import.meta.url));

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function shownDefault(spec: Variable): string {
  if (spec.shownDefault !== undefined) return spec.shownDefault;
  if (spec.default === undefined) return "";
  const value = Array.isArray(spec.default) ? spec.default.join(",") : String(spec.default);
  return value === "" ? "" : `\`${value}\``;
}

/** The Markdown between the markers: one table per area, in SETTINGS's order. */
export function renderConfigTables(settings: Record<string, Variable> = SETTINGS): string {
  const byArea = new Map<Area, string[]>();
  for (const [name, spec] of Object.entries(settings)) {
    const type = spec.secret ? `${spec.kind.label}; secret` : spec.kind.label;
    const row = `| \`${name}\` | ${cell(type)} | ${cell(shownDefault(spec))} | ${cell(spec.description)} |`;
    byArea.set(spec.area, [...(byArea.get(spec.area) ?? []), row]);
  }
  const parts: string[] = [];
  for (const [area, title] of Object.entries(AREA_TITLES) as [Area, string][]) {
    const rows = byArea.get(area);
    if (!rows) continue;
    parts.push(`### ${title}\n\n| variable | type | default | effect |\n| --- | --- | --- | --- |\n${rows.join("\n")}`);
  }
  return parts.join("\n\n");
}

/** `readme` with the text between the markers replaced by the tables. */
export function withConfigTables(readme: string, tables = renderConfigTables()): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no "${BEGIN}" … "${END}" section`);
  return `${readme.slice(0, begin + BEGIN.length)}\n\n${tables}\n\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = readFileSync(README, "utf8");
  const fresh = withConfigTables(current);
  if (process.argv.includes("--check")) {
    if (fresh !== current) {
      console.error("README.md's configuration tables are stale: run `make generate` (codegen/config-docs.ts).");
      process.exit(1);
    }
  } else if (fresh !== current) {
    writeFileSync(README, fresh);
  }
}
