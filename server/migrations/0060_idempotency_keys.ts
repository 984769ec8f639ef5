// Idempotent writes (Idempotency-Key): the first answer to a caller's key, kept 24 hours, one row
// per caller scope and key. The key is never stored: key_hash is its SHA-256 and the body is
// encrypted with a key derived from it (AES-256-GCM). `status` is null while a multi-step
// operation (checkout confirm) is under way; `subject` names what it works on (`checkout:<id>`).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table idempotency_keys (
      scope text not null,
      key_hash text not null,
      fingerprint text not null,
      operation text not null,
      status smallint,
      answer bytea,
      subject text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (scope, key_hash)
    )`);
  await knex.raw("create index idempotency_keys_expires_at on idempotency_keys (expires_at)");
  await knex.raw("create index idempotency_keys_running_subject on idempotency_keys (subject) where status is null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists idempotency_keys");
}
