// Event types: a label (and a metadata path for a dynamic one) for each user event name an
// organization's events have used. A trigger on event_names gives a name its type the moment
// ingestion first counts it, in the same transaction, whichever path stored the events; the
// names stored before this migration get theirs here. System events have no row (their labels
// are fixed, server/events/models.ts).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table event_types (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      modified_at timestamptz,
      organization_id uuid not null references organizations (id),
      name text not null,
      label text not null,
      label_property_selector text,
      unique (organization_id, name)
    )`);
  await knex.raw(`
    create function event_types_of_new_names() returns trigger language plpgsql as $$
    begin
      insert into event_types (organization_id, name, label) values (new.organization_id, new.name, new.name)
      on conflict (organization_id, name) do nothing;
      return null;
    end $$`);
  await knex.raw(`
    create trigger event_types_of_new_names after insert on event_names
      for each row when (new.source = 'user') execute function event_types_of_new_names()`);
  await knex.raw(`
    insert into event_types (organization_id, name, label, created_at)
    select organization_id, name, name, first_seen from event_names where source = 'user'
    on conflict (organization_id, name) do nothing`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop trigger if exists event_types_of_new_names on event_names");
  await knex.raw("drop function if exists event_types_of_new_names()");
  await knex.raw("drop table if exists event_types");
}
