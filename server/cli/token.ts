// `make token [ORG=slug] [SCOPES="products:read products:write"]`: mints an organization access
// token against DATABASE_URL (or the `make run` database in .data/) and prints it.
import { existsSync, readFileSync } from "node:fs";
import { createKnex } from "../kit/db.js";
import { ALL_SCOPES, mintOrganizationToken } from "../kit/auth.js";

async function main() {
  // `make run` records where its database listens in .data/run.json.
  const runFile = new URL("../../.data/run.json", import.meta.url);
  const url = process.env.DATABASE_URL ?? (existsSync(runFile) ? JSON.parse(readFileSync(runFile, "utf8")).databaseUrl : undefined);
  if (!url) throw new Error("Set DATABASE_URL, or start `make run` first.");
  const slug = process.env.ORG ?? "demo";
  const scopes = process.env.SCOPES ? process.env.SCOPES.split(/[\s,]+/).filter(Boolean) : [...ALL_SCOPES];
  const knex = createKnex(url, { pool: { min: 0, max: 1 } });
  try {
    const org = await knex("organizations").where({ slug }).first("id");
    if (!org) throw new Error(`No organization with slug "${slug}".`);
    console.log(await mintOrganizationToken(knex, org.id, { scopes, comment: "make token" }));
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
