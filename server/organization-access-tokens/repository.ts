// Organization access token queries, scoped to the caller's organization; revoked tokens are gone.
// kit/auth.ts (minting) and kit/org-tokens.ts (verifying) store and read tokens here, so this
// module names its caller by its organization only and imports nothing from kit/auth.ts.
import type { Knex } from "knex";
import { isUuid } from "../kit/ids.js";
import type { OrganizationAccessTokenRow } from "./models.js";

/** Whose tokens are read: the organization of the calling token or member. */
export interface OrganizationScope {
  organizationId: string;
}

/** A token to store: its hash, never the token. */
export interface NewToken {
  organization_id: string;
  token_hash: string;
  scopes: string[];
  comment: string;
  expires_at: Date | null;
}

/** What verifying a token needs of its row. */
export type LiveToken = Pick<OrganizationAccessTokenRow, "id" | "organization_id" | "scopes" | "expires_at" | "last_used_at">;

export function readable(db: Knex, caller: OrganizationScope): Knex.QueryBuilder {
  return db("organization_access_tokens")
    .where("organization_access_tokens.organization_id", caller.organizationId)
    .whereNull("organization_access_tokens.revoked_at");
}

export async function findReadable(
  db: Knex,
  caller: OrganizationScope,
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
export async function insert(db: Knex, values: NewToken): Promise<OrganizationAccessTokenRow> {
  const [row] = await db<OrganizationAccessTokenRow>("organization_access_tokens").insert(values).returning("*");
  return row as OrganizationAccessTokenRow;
}

/** Stores a token without reading it back (minting needs only the plain token it made). */
export async function store(db: Knex, values: NewToken): Promise<void> {
  await db("organization_access_tokens").insert(values);
}

/** Writes `patch` (with its own modified_at) and returns the token. */
export async function update(db: Knex, id: string, patch: Partial<OrganizationAccessTokenRow>): Promise<OrganizationAccessTokenRow> {
  const [changed] = await db<OrganizationAccessTokenRow>("organization_access_tokens").where({ id }).update(patch).returning("*");
  return changed as OrganizationAccessTokenRow;
}

/** The token with this hash, unless revoked or expired. */
export function findLiveByHash(db: Knex, tokenHash: string): Promise<LiveToken | undefined> {
  return db("organization_access_tokens")
    .where({ token_hash: tokenHash })
    .whereNull("revoked_at")
    .where((q) => q.whereNull("expires_at").orWhere("expires_at", ">", db.fn.now()))
    .first("id", "organization_id", "scopes", "expires_at", "last_used_at");
}

/** Records a use of the token (the notify trigger ignores last_used_at). */
export async function touchLastUsed(db: Knex, id: string): Promise<void> {
  await db("organization_access_tokens").where({ id }).update({ last_used_at: db.fn.now() });
}
