// Migrates DATABASE_URL to the latest schema and exits: run once per release, before the new API
// and worker processes start (docs/DEPLOYMENT.md). Migrations only add, so the running release
// keeps working meanwhile.
import { setting } from "../config.js";
import { createKnex, migrateLatest } from "../kit/db.js";

const url = setting("DATABASE_URL");
if (!url) throw new Error("DATABASE_URL is not set");
const knex = createKnex(url, { pool: { min: 0, max: 1 } });
try {
  await migrateLatest(knex);
} finally {
  await knex.destroy();
}
