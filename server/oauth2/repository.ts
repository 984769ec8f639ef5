// OAuth2 client and access token queries (oauth_clients, oauth_access_tokens: written by better-auth's OAuth provider).
import type { Knex } from "knex";

export function findClient<T>(db: Knex, clientId: string): Promise<T | undefined> {
  return db("oauth_clients").where({ client_id: clientId }).first();
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
