// knex CLI configuration (`npx knex --knexfile knexfile.ts migrate:status`). The app itself
// migrates through server/kit/db.ts with the same static migration source.
import { migrationSource } from "./server/kit/db.js";

const config = {
  client: "pg",
  connection: process.env.DATABASE_URL ?? "postgres://postgres:postgres@localhost:5432/borealis",
  migrations: { migrationSource },
};
export default config;
