// Customer session rows. Only the SHA-256 hash of a token is stored.
import type { Knex } from "knex";

export interface CustomerSessionRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  customer_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
}

export async function insertSession(
  db: Knex,
  values: Pick<CustomerSessionRow, "customer_id" | "token_hash" | "expires_at">,
): Promise<CustomerSessionRow> {
  const [row] = await db<CustomerSessionRow>("customer_sessions").insert(values).returning("*");
  return row as CustomerSessionRow;
}
