// Organization access tokens made through the API: a change that decides whether a token works
// (revoked, deleted, new scopes, new expiry) NOTIFYs channel `organization_access_tokens` with the
// token's id, delivered at commit; every API process LISTENs and drops its cached copy
// (server/organization-access-tokens/verifier.ts). Writing last_used_at or the comment notifies nobody.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function organization_access_tokens_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('organization_access_tokens', old.id::text);
      return null;
    end $$`);
  await knex.raw(`
    create trigger organization_access_tokens_changed after update on organization_access_tokens for each row
    when (old.revoked_at is distinct from new.revoked_at or old.scopes is distinct from new.scopes
          or old.expires_at is distinct from new.expires_at or old.token_hash is distinct from new.token_hash
          or old.organization_id is distinct from new.organization_id)
    execute function organization_access_tokens_notify()`);
  await knex.raw(`
    create trigger organization_access_tokens_deleted after delete on organization_access_tokens for each row
    execute function organization_access_tokens_notify()`);
  await knex.raw("create index organization_access_tokens_organization on organization_access_tokens (organization_id, created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists organization_access_tokens_organization");
  await knex.raw("drop trigger if exists organization_access_tokens_deleted on organization_access_tokens");
  await knex.raw("drop trigger if exists organization_access_tokens_changed on organization_access_tokens");
  await knex.raw("drop function if exists organization_access_tokens_notify()");
}
