// Rate limit counters, shared by every API process (server/kit/rate-limits.ts): the table
// (api_rate_limits; better-auth keeps its own sign-in counters in rate_limits), the one
// rate-limiter-flexible's PostgreSQL store reads and writes (its own shape), created here so that
// no process runs DDL at run time. Keys are `<policy>:<subject>`; expired rows are deleted by the
// library every five minutes.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table api_rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists api_rate_limits");
}
