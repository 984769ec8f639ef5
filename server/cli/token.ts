// `make token [ORG=slug] [SCOPES="products:read products:write"]`: mints an organization access
// token and prints it (only the token, on stdout). The database is DATABASE_URL, or else the one a
// running `make run` recorded in its data dir (.data/run.json, or BOREALIS_DATA_DIR's).
// Organization: ORG's slug (default: the demo organization). Scopes: SCOPES, space- or
// comma-separated, each one of the contract's (default: all of them).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "../../scripts/services.js";
import { setting } from "../config.js";
import { createKnex } from "../kit/db.js";
import { ALL_SCOPES } from "../kit/auth.js";
import { mintOrganizationToken } from "../organization-access-tokens/service.js";
import { findBySlug } from "../organizations/repository.js";

function databaseUrl(): string {
  const configured = setting("DATABASE_URL");
  if (configured) return configured;
  const runFile = path.join(DATA_DIR, "run.json");
  const recorded = existsSync(runFile) ? (JSON.parse(readFileSync(runFile, "utf8")) as { databaseUrl?: string }).databaseUrl : undefined;
  if (!recorded) throw new Error("Set DATABASE_URL, or start `make run` first (it records its database in " + runFile + ").");
  return recorded;
}

function scopes(): string[] {
  const raw = setting("SCOPES");
  if (!raw) return [...ALL_SCOPES];
  const asked = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = asked.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`Unknown scope(s): ${unknown.join(", ")}. Known: ${ALL_SCOPES.join(" ")}`);
  if (asked.length === 0) throw new Error("SCOPES is empty: name at least one scope, or unset it for all of them.");
  return asked;
}

async function main() {
  const slug = setting("ORG");
  const wanted = scopes();
  const knex = createKnex(databaseUrl(), { pool: { min: 0, max: 1 } });
  try {
    const org = await findBySlug(knex, slug);
    if (!org) throw new Error(`No organization with slug "${slug}".`);
    console.log(await mintOrganizationToken(knex, org.id, { scopes: wanted, comment: "make token" }));
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
