// Benefit grant jobs: the intent to grant, revoke, cycle or update one grant, written in the
// transaction of the change that causes it (an order paid, a refund, a benefit edit), so the
// intent exists exactly when that change committed. A workflow per job carries it out; jobs of
// one grant apply in `seq` order, and a sweep restarts the workflow of any job left pending.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("benefit_grants", (t) => {
    // The last job sequence number handed out for this grant (bumped under the row lock).
    t.integer("job_seq").notNullable().defaultTo(0);
  });
  await knex.schema.createTable("benefit_grant_jobs", (t) => {
    t.bigIncrements("id").primary();
    t.uuid("grant_id").notNullable().references("benefit_grants.id").onDelete("CASCADE");
    t.integer("seq").notNullable();
    t.text("action").notNullable();
    // Per action: the benefit's properties before an update (the strategy's `previous`).
    t.jsonb("payload").notNullable().defaultTo("{}");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("done_at", { useTz: true });
    // applied, skipped (nothing to do), superseded (a later revoke made it moot), waiting (needs a linked account).
    t.text("outcome");
    t.unique(["grant_id", "seq"]);
  });
  await knex.raw(
    "alter table benefit_grant_jobs add constraint benefit_grant_jobs_action check (action in ('grant', 'revoke', 'cycle', 'update'))",
  );
  await knex.raw("create index benefit_grant_jobs_pending on benefit_grant_jobs (created_at) where done_at is null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("benefit_grant_jobs");
  await knex.schema.alterTable("benefit_grants", (t) => {
    t.dropColumn("job_seq");
  });
}
