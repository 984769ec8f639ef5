// Organization access token queries, scoped to the caller's organization; revoked tokens are gone.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import type { OrganizationAccessTokenRow } from "./models.js";

/** The columns the API's token check needs. */
export interface LiveToken {
  id: string;
  organization_id: string;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** The token with this hash if it is neither revoked nor expired (the verifier's read, on every uncached request). */
export async function findLiveByHash(db: Knex, tokenHash: string): Promise<LiveToken | undefined> {
  return db("organization_access_tokens")
    .where({ token_hash: tokenHash })
    .whereNull("revoked_at")
    .where((q) => q.whereNull("expires_at").orWhere("expires_at", ">", db.fn.now()))
    .first("id", "organization_id", "scopes", "expires_at", "last_used_at");
}

/** Records a use (the notify trigger ignores last_used_at: no cache is dropped for it). */
export async function recordUse(db: Knex, id: string): Promise<void> {
  await db("organization_access_tokens").where({ id }).update({ last_used_at: db.fn.now() });
}

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("organization_access_tokens")
    .where("organization_access_tokens.organization_id", caller.organizationId)
    .whereNull("organization_access_tokens.revoked_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrganizationAccessTokenRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("organization_access_tokens.id", id).first("organization_access_tokens.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<OrganizationAccessTokenRow | undefined>;
}

/** Revokes the token: it stays in the table, out of every list and refused everywhere. */
export async function revoke(db: Knex, id: string): Promise<void> {
  await db("organization_access_tokens").where({ id }).update({ revoked_at: db.fn.now(), modified_at: db.fn.now() });
}

/** Stores a token and answers its row. */
export async function insert(
  db: Knex,
  values: { organization_id: string; token_hash: string; scopes: string[]; comment: string; expires_at: Date | null },
): Promise<OrganizationAccessTokenRow> {
  const [row] = await db<OrganizationAccessTokenRow>("organization_access_tokens").insert(values).returning("*");
  return row as OrganizationAccessTokenRow;
}

/** Writes `patch` (with its own modified_at) and returns the token. */
export async function update(db: Knex, id: string, patch: Partial<OrganizationAccessTokenRow>): Promise<OrganizationAccessTokenRow> {
  const [changed] = await db<OrganizationAccessTokenRow>("organization_access_tokens").where({ id }).update(patch).returning("*");
  return changed as OrganizationAccessTokenRow;
}
