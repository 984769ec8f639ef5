// Saved metrics dashboards: a name and the metrics it shows, per organization.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table metric_dashboards (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations (id),
      name text not null,
      metrics text[] not null default '{}'
    )`);
  await knex.raw("create index metric_dashboards_organization on metric_dashboards (organization_id, created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists metric_dashboards");
}
