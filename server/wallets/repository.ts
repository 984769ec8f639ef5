// Wallet queries: a customer's wallets (one per currency) and their ledger, scoped to the caller's
// organization (and customer, in the portal). Writes lock the wallet row first.
import type { Knex } from "knex";
import { isUuid } from "../kit/ids.js";
import { insertReturning } from "../kit/rows.js";

export interface WalletRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  customer_id: string;
  currency: string;
  balance: number;
}

export type WalletTransactionKind = "credit" | "order" | "refund";

export interface WalletTransactionRow {
  id: string;
  created_at: Date;
  wallet_id: string;
  organization_id: string;
  kind: WalletTransactionKind;
  amount: number;
  balance_after: number;
  order_id: string | null;
  refund_id: string | null;
  description: string | null;
}

export interface WalletScope {
  organizationId: string;
  customerId?: string;
}

export function readable(db: Knex, scope: WalletScope): Knex.QueryBuilder {
  const q = db("wallets").where("wallets.organization_id", scope.organizationId);
  return scope.customerId ? q.where("wallets.customer_id", scope.customerId) : q;
}

export async function findReadable(
  db: Knex,
  scope: WalletScope,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WalletRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, scope).where("wallets.id", id).first("wallets.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<WalletRow | undefined>;
}

/** The customer's wallet in `currency`, locked; created empty first when there is none. */
export async function lockOrCreate(
  trx: Knex.Transaction,
  organizationId: string,
  customerId: string,
  currency: string,
): Promise<WalletRow> {
  await trx("wallets")
    .insert({ organization_id: organizationId, customer_id: customerId, currency })
    .onConflict(["customer_id", "currency"])
    .ignore();
  return (await lockFor(trx, customerId, currency))!;
}

/** The customer's wallet in `currency`, locked, if they have one. */
export function lockFor(trx: Knex.Transaction, customerId: string, currency: string): Promise<WalletRow | undefined> {
  return trx("wallets").where({ customer_id: customerId, currency }).forUpdate().first();
}

/** Writes a ledger row and the wallet's new balance (the caller holds the wallet locked). */
export async function appendTransaction(
  trx: Knex.Transaction,
  wallet: WalletRow,
  entry: {
    kind: WalletTransactionKind;
    amount: number;
    orderId?: string | null;
    refundId?: string | null;
    description?: string | null;
  },
): Promise<{ wallet: WalletRow; transaction: WalletTransactionRow }> {
  const balance = wallet.balance + entry.amount;
  const [updated] = (await trx("wallets")
    .where({ id: wallet.id })
    .update({ balance, modified_at: new Date() })
    .returning("*")) as WalletRow[];
  const transaction = await insertReturning<WalletTransactionRow>(trx, "wallet_transactions", {
    wallet_id: wallet.id,
    organization_id: wallet.organization_id,
    kind: entry.kind,
    amount: entry.amount,
    balance_after: balance,
    order_id: entry.orderId ?? null,
    refund_id: entry.refundId ?? null,
    description: entry.description ?? null,
  });
  return { wallet: updated, transaction };
}

/** Whether the refund with this id has its ledger entry already. */
export async function hasRefundEntry(db: Knex, refundId: string): Promise<boolean> {
  return (await db("wallet_transactions").where({ refund_id: refundId }).first("id")) !== undefined;
}

export function transactionsOf(db: Knex, walletId: string): Knex.QueryBuilder {
  return db("wallet_transactions").where("wallet_transactions.wallet_id", walletId);
}

/** The sum of a wallet's ledger (what its balance must equal). */
export async function ledgerSum(db: Knex, walletId: string): Promise<number> {
  const row = (await db("wallet_transactions").where({ wallet_id: walletId }).sum({ n: "amount" }).first()) as
    { n: string | number | null } | undefined;
  return Number(row?.n ?? 0);
}
