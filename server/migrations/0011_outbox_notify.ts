// Wakes the outbox relay the moment outbox rows commit: every transaction that inserts into the
// outbox NOTIFYs channel `outbox`. PostgreSQL delivers a notification only at commit (never on
// rollback) and folds repeats within one transaction into one. The worker LISTENs and signals the
// relay (workflows/activities/outbox.ts, listenForOutbox); the relay's idle poll stays the backstop.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function outbox_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('outbox', '');
      return null;
    end $$`);
  await knex.raw("create trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop trigger if exists outbox_notify on outbox");
  await knex.raw("drop function if exists outbox_notify()");
}
