// OAuth2 client queries (oauth_clients, written by better-auth's OAuth provider).
import type { Knex } from "knex";

export function findClient<T>(db: Knex, clientId: string): Promise<T | undefined> {
  return db("oauth_clients").where({ client_id: clientId }).first();
}
