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
  /** The checkout whose confirm opened the session: it shows that purchase alone. */
  checkout_id: string | null;
  /** Where the portal links back to (the merchant's app), when its creator said. */
  return_url: string | null;
  /** The team member the session is for; null: the customer's own. */
  member_id: string | null;
}

export async function insertSession(
  db: Knex,
  values: Pick<CustomerSessionRow, "customer_id" | "token_hash" | "expires_at"> & {
    checkout_id?: string;
    return_url?: string | null;
    member_id?: string | null;
  },
): Promise<CustomerSessionRow> {
  const [row] = await db<CustomerSessionRow>("customer_sessions").insert(values).returning("*");
  return row as CustomerSessionRow;
}

/** The customer behind a live session token: not expired, not revoked, and the customer not deleted. */
export async function findLiveSession(
  db: Knex,
  tokenHash: string,
): Promise<
  { session_id: string; customer_id: string; organization_id: string; checkout_id: string | null; member_id: string | null } | undefined
> {
  return db("customer_sessions")
    .join("customers", "customers.id", "customer_sessions.customer_id")
    .where("customer_sessions.token_hash", tokenHash)
    .whereNull("customer_sessions.revoked_at")
    .where("customer_sessions.expires_at", ">", db.fn.now())
    .whereNull("customers.deleted_at")
    .first(
      "customer_sessions.id as session_id",
      "customers.id as customer_id",
      "customers.organization_id",
      "customer_sessions.checkout_id",
      "customer_sessions.member_id",
    );
}

/** A session by id, as its portal reads it: when it ends and where it links back to. */
export function sessionById(db: Knex, id: string): Promise<Pick<CustomerSessionRow, "expires_at" | "return_url"> | undefined> {
  return db("customer_sessions").where({ id }).first("expires_at", "return_url");
}

/** Ends every open session of the customer at `at`. */
export async function revokeCustomerSessions(db: Knex, customerId: string, at: Date): Promise<void> {
  await db("customer_sessions").where({ customer_id: customerId }).whereNull("revoked_at").update({ revoked_at: at });
}

/**
 * Sign-in code rows. A code without a customer (`code_hash` null) is kept too: a request for an
 * email that is no customer's counts against the limits like any other.
 */
export interface NewSessionCode {
  organization_id: string;
  customer_id: string | null;
  email: string;
  client_ip: string | null;
  expires_at: Date;
  code_hash: string | null;
}

/**
 * The creation time of the `limit`-th newest row of `q` (null while it has fewer): the limit is
 * reached until that row, the oldest one counted, leaves the window.
 */
async function limitingRow(q: Knex.QueryBuilder, limit: number): Promise<Date | null> {
  const row: { created_at: Date } | undefined = await q
    .orderBy("created_at", "desc")
    .offset(limit - 1)
    .first("created_at");
  return row?.created_at ?? null;
}

/** One request at a time per organization and address, until the transaction ends. */
export async function lockCodeRequests(trx: Knex.Transaction, organizationId: string, email: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`customer-session-code:${organizationId}:${email.toLowerCase()}`]);
}

/** Of the codes asked for this email since `since`, the one keeping `limit` reached (limitingRow). */
export function limitingCodeForEmail(db: Knex, organizationId: string, email: string, since: Date, limit: number): Promise<Date | null> {
  return limitingRow(
    db("customer_session_codes")
      .where({ organization_id: organizationId })
      .whereRaw("lower(email) = lower(?)", [email])
      .where("created_at", ">", since),
    limit,
  );
}

/** Of the codes asked from this client since `since`, the one keeping `limit` reached (limitingRow). */
export function limitingCodeFromClient(db: Knex, clientIp: string, since: Date, limit: number): Promise<Date | null> {
  return limitingRow(db("customer_session_codes").where({ client_ip: clientIp }).where("created_at", ">", since), limit);
}

export async function deleteCodesExpiredBefore(db: Knex, before: Date): Promise<void> {
  await db("customer_session_codes").where("expires_at", "<", before).delete();
}

/** Inserts the code; false when its hash is already kept (the caller draws another). */
export async function insertCode(db: Knex, row: NewSessionCode): Promise<boolean> {
  if (row.code_hash === null) {
    await db("customer_session_codes").insert(row);
    return true;
  }
  return (await db("customer_session_codes").insert(row).onConflict("code_hash").ignore().returning("id")).length > 0;
}

/** The live, unused code of a customer with this hash, locked. */
export async function lockLiveCode(
  trx: Knex.Transaction,
  codeHash: string,
): Promise<{ customer_id: string; organization_id: string; email: string } | undefined> {
  return trx("customer_session_codes")
    .where({ code_hash: codeHash })
    .whereNull("used_at")
    .where("expires_at", ">", trx.fn.now())
    .whereNotNull("customer_id")
    .forUpdate()
    .first();
}

/** Every live code of the customer (with `email`, when given) is used up (one sign-in per round of emails). */
export async function useCustomerCodes(trx: Knex.Transaction, customerId: string, email: string | null = null): Promise<void> {
  const q = trx("customer_session_codes").where({ customer_id: customerId }).whereNull("used_at");
  if (email !== null) q.whereRaw("lower(email) = lower(?)", [email]);
  await q.update({ used_at: trx.fn.now() });
}

/** Of this client's wrong codes since `since`, the one keeping `limit` reached (limitingRow). */
export function limitingFailureFromClient(db: Knex, clientIp: string, since: Date, limit: number): Promise<Date | null> {
  return limitingRow(db("customer_session_code_failures").where({ client_ip: clientIp }).where("created_at", ">", since), limit);
}

export async function recordFailure(db: Knex, clientIp: string): Promise<void> {
  await db("customer_session_code_failures").insert({ client_ip: clientIp });
}

/** A customer's pending email change: the new address and the hash of the code sent to it. */
export interface EmailVerificationRow {
  id: string;
  organization_id: string;
  customer_id: string;
  email: string;
  token_hash: string;
  expires_at: Date;
}

/** Puts the customer's pending email change in place of any earlier one (whose code stops working). */
export async function replaceEmailVerification(
  db: Knex,
  values: Pick<EmailVerificationRow, "organization_id" | "customer_id" | "email" | "token_hash" | "expires_at">,
): Promise<void> {
  await db("customer_email_verifications").where({ customer_id: values.customer_id }).delete();
  await db("customer_email_verifications").insert(values);
}

/** The pending email change whose code has this hash, while it has not expired (locked when asked). */
export function liveEmailVerification(
  db: Knex,
  tokenHash: string,
  opts: { forUpdate?: boolean } = {},
): Promise<EmailVerificationRow | undefined> {
  const q = db("customer_email_verifications").where({ token_hash: tokenHash }).where("expires_at", ">", db.fn.now()).first();
  return opts.forUpdate ? q.forUpdate() : q;
}

export async function deleteEmailVerification(db: Knex, id: string): Promise<void> {
  await db("customer_email_verifications").where({ id }).delete();
}
