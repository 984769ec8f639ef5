// Queries on the tables better-auth owns (users, accounts, sessions, and its OAuth provider's
// oauth_clients, oauth_access_tokens and oauth_refresh_tokens) that the API reads or seeds.
import type { Knex } from "knex";

export function findUserIdByEmail(db: Knex, email: string): Promise<{ id: string } | undefined> {
  return db("users").where({ email }).first("id");
}

export async function insertUser(db: Knex, values: Record<string, unknown>): Promise<{ id: string }> {
  const [user] = await db("users").insert(values).returning("id");
  return user;
}

export interface UserRow {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
}

/** These columns of a user the caller knows exists (a signed-in user, a token's user). */
export async function findUser<K extends keyof UserRow>(db: Knex, id: string, columns: K[]): Promise<Pick<UserRow, K>> {
  return (await db("users")
    .where({ id })
    .first(...columns)) as Pick<UserRow, K>;
}

/** The user's password account, when they have one. */
export function findCredentialAccount(db: Knex, userId: string): Promise<{ id: string; password: string | null } | undefined> {
  return db("accounts").where({ user_id: userId, provider_id: "credential" }).first("id", "password");
}

export async function insertCredentialAccount(db: Knex, userId: string, passwordHash: string): Promise<void> {
  await db("accounts").insert({ user_id: userId, account_id: userId, provider_id: "credential", password: passwordHash });
}

export async function setAccountPassword(db: Knex, id: string, passwordHash: string): Promise<void> {
  await db("accounts").where({ id }).update({ password: passwordHash, updated_at: db.fn.now() });
}

export function sessionActiveOrganization(db: Knex, sessionId: string): Promise<{ active_organization_id: string | null } | undefined> {
  return db("sessions").where({ id: sessionId }).first("active_organization_id");
}

export function findClient<T>(db: Knex, clientId: string): Promise<T | undefined> {
  return db("oauth_clients").where({ client_id: clientId }).first();
}

/** The columns better-auth's provider keeps a client's links in. */
const CLIENT_LINK_COLUMNS = { client_uri: "uri", logo_uri: "icon", tos_uri: "tos", policy_uri: "policy" } as const;

export type ClientLink = keyof typeof CLIENT_LINK_COLUMNS;

/** Empties these links of the owner's client (an organization's, or a user's). */
export async function clearClientLinks(
  db: Knex,
  clientId: string,
  owner: { reference_id: string | null; user_id: string | null },
  links: readonly ClientLink[],
): Promise<void> {
  if (links.length === 0) return;
  const values = Object.fromEntries(links.map((link) => [CLIENT_LINK_COLUMNS[link], null]));
  await db("oauth_clients")
    .where({ client_id: clientId, reference_id: owner.reference_id, user_id: owner.user_id })
    .update(Object.assign(values, { updated_at: db.fn.now() }));
}

export interface AccessTokenRow {
  client_id: string;
  user_id: string | null;
  reference_id: string | null;
  scopes: string[];
  expires_at: Date;
}

/** The live (unrevoked, unexpired) access token with this hash. */
export function findLiveAccessToken(db: Knex, tokenHash: string): Promise<AccessTokenRow | undefined> {
  return db("oauth_access_tokens")
    .where({ token: tokenHash })
    .whereNull("revoked")
    .where("expires_at", ">", db.fn.now())
    .first("client_id", "user_id", "reference_id", "scopes", "expires_at");
}

/** The stored access or refresh token with this hash: whom it acts for (token introspection). */
export function findOAuthToken(
  db: Knex,
  table: "oauth_access_tokens" | "oauth_refresh_tokens",
  tokenHash: string,
): Promise<{ reference_id: string | null; user_id: string | null } | undefined> {
  const q = table === "oauth_refresh_tokens" ? db("oauth_refresh_tokens") : db("oauth_access_tokens");
  return q.where({ token: tokenHash }).first("reference_id", "user_id");
}
