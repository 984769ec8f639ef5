// Idempotent writes (Idempotency-Key): the first answer to a caller's key, kept 24 hours.
// One row per caller scope (an organization, a customer, a checkout's client secret, a license
// key) and key. The key itself is never stored: key_hash is its SHA-256, and the answer's body is
// encrypted with a key derived from it (AES-256-GCM), so a stored answer that carries a token
// (a customer session, a confirmed checkout's) is unreadable without the caller's key.
// `status` is null while an operation that commits in steps (checkout confirm) is under way;
// `subject` names what that operation works on (`checkout:<id>`), so whatever settles it can
// find the row. Generic operations write the row in the transaction of their write.
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
