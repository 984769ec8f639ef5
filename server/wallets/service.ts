// Prepaid wallets: a customer's balance per currency. The merchant credits it; a subscription's
// renewal order spends from it before the rest is charged (subscriptions/billing.ts); a refund takes
// back from it what it returns in cash (refunds/service.ts). Every change locks the wallet row, re-reads its balance and writes the balance and a ledger row in one
// transaction, so the balance always equals the ledger's sum and never goes below zero.
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import { findReadable as findCustomer } from "../customers/repository.js";
import type { CustomerCaller, OrganizationCaller } from "../kit/auth.js";
import { ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";
import { InsufficientWalletBalance } from "./errors.js";
import { toWallet, toWalletTransaction, type WalletOut, type WalletTransactionOut } from "./models.js";
import {
  appendTransaction,
  findReadable,
  hasRefundEntry,
  lockFor,
  lockOrCreate,
  readable,
  transactionsOf,
  type WalletRow,
  type WalletScope,
  type WalletTransactionRow,
} from "./repository.js";

const SORTS = { created_at: "wallets.created_at", balance: "wallets.balance" };

function portalScope(caller: CustomerCaller): WalletScope {
  return { organizationId: caller.organizationId, customerId: caller.customerId };
}

export async function listPortalWallets(
  db: Knex,
  caller: CustomerCaller,
  query: OpQuery<"customer_portal:wallets:list">,
): Promise<Page<WalletOut>> {
  const q = readable(db, portalScope(caller)).select("wallets.*");
  applySorting(q, query.sorting, SORTS, ["-created_at"], "wallets.id");
  return listPage(q, query, (rows: WalletRow[]) => rows.map(toWallet));
}

export async function getPortalWallet(db: Knex, caller: CustomerCaller, id: string): Promise<WalletOut> {
  const row = await findReadable(db, portalScope(caller), id);
  if (!row) throw new ResourceNotFound("Wallet not found.");
  return toWallet(row);
}

export async function listPortalWalletTransactions(
  db: Knex,
  caller: CustomerCaller,
  id: string,
  query: OpQuery<"customer_portal:wallets:list_transactions">,
): Promise<Page<WalletTransactionOut>> {
  const wallet = await findReadable(db, portalScope(caller), id);
  if (!wallet) throw new ResourceNotFound("Wallet not found.");
  const q = transactionsOf(db, wallet.id)
    .select("wallet_transactions.*")
    .orderBy([
      { column: "wallet_transactions.created_at", order: "desc" },
      { column: "wallet_transactions.id", order: "asc" },
    ]);
  return listPage(q, query, (rows: WalletTransactionRow[]) => rows.map(toWalletTransaction));
}

export async function listWallets(db: Knex, caller: OrganizationCaller, query: OpQuery<"wallets:list">): Promise<Page<WalletOut>> {
  const q = readable(db, caller).select("wallets.*");
  const customers = asList(query.customer_id);
  if (customers.length) q.whereIn("wallets.customer_id", customers.filter(isUuid));
  const currencies = asList(query.currency);
  if (currencies.length) q.whereIn("wallets.currency", currencies);
  applySorting(q, query.sorting, SORTS, ["-created_at"], "wallets.id");
  return listPage(q, query, (rows: WalletRow[]) => rows.map(toWallet));
}

/** The merchant credits a customer's wallet in a currency (created on its first credit). */
export async function creditWallet(uow: UnitOfWork, caller: OrganizationCaller, body: OpBody<"wallets:credit">): Promise<WalletOut> {
  return uow.db.transaction(async (trx) => {
    const customer = await findCustomer(trx, caller, { id: body.customer_id });
    if (!customer) throw new ResourceNotFound("Customer not found.");
    const wallet = await lockOrCreate(trx, caller.organizationId, customer.id, body.currency);
    const done = await appendTransaction(trx, wallet, { kind: "credit", amount: body.amount, description: body.description ?? null });
    return toWallet(done.wallet);
  });
}

/**
 * Takes `amount` from the wallet with this id, inside `trx`; InsufficientWalletBalance when its
 * balance (read under the lock) is lower.
 */
export async function debitWallet(
  trx: Knex.Transaction,
  scope: WalletScope,
  walletId: string,
  amount: number,
  entry: { orderId?: string | null; description?: string | null } = {},
): Promise<WalletRow> {
  const wallet = await findReadable(trx, scope, walletId, { forUpdate: true });
  if (!wallet) throw new ResourceNotFound("Wallet not found.");
  if (wallet.balance < amount) throw new InsufficientWalletBalance(`The wallet holds ${wallet.balance}, less than ${amount}.`);
  const done = await appendTransaction(trx, wallet, {
    kind: "order",
    amount: -amount,
    orderId: entry.orderId,
    description: entry.description,
  });
  return done.wallet;
}

/** What a customer's wallet can pay of an amount due, with the wallet held locked until `trx` ends. */
export interface BalanceHold {
  wallet: WalletRow | null;
  /** What the wallet pays: at most its balance and the amount due. */
  applied: number;
}

/** Locks the customer's wallet in `currency` and answers what it can pay of `due`. */
export async function holdBalance(trx: Knex.Transaction, customerId: string, currency: string, due: number): Promise<BalanceHold> {
  const wallet = (await lockFor(trx, customerId, currency)) ?? null;
  return { wallet, applied: wallet && due > 0 ? Math.min(wallet.balance, due) : 0 };
}

/** Spends a held balance on the order created with it. */
export async function spendHeld(trx: Knex.Transaction, hold: BalanceHold, orderId: string): Promise<void> {
  if (!hold.wallet || hold.applied === 0) return;
  await appendTransaction(trx, hold.wallet, { kind: "order", amount: -hold.applied, orderId });
}

/**
 * A refund that returns cash takes the same amount back from the customer's positive balance in its
 * currency, as far as it goes (Polar's refunds do: the cash and a balance would otherwise both stay
 * with the customer). Once per refund: the wallet is locked and the refund's entry looked for first.
 */
export async function takeBackOnRefund(
  trx: Knex.Transaction,
  refund: { id: string; orderId: string; customerId: string; currency: string; total: number },
): Promise<WalletTransactionRow | null> {
  const wallet = await lockFor(trx, refund.customerId, refund.currency);
  if (!wallet || wallet.balance <= 0 || refund.total <= 0) return null;
  if (await hasRefundEntry(trx, refund.id)) return null;
  const amount = Math.min(wallet.balance, refund.total);
  const done = await appendTransaction(trx, wallet, { kind: "refund", amount: -amount, orderId: refund.orderId, refundId: refund.id });
  return done.transaction;
}
