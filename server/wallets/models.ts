// The wallet wire shapes: Polar's Wallet and CustomerWallet (the same fields), and a ledger entry.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { WalletRow, WalletTransactionRow } from "./repository.js";

export type WalletOut = components["schemas"]["Wallet"];
export type CustomerWalletOut = components["schemas"]["CustomerWallet"];
export type WalletTransactionOut = components["schemas"]["WalletTransaction"];

export function toWallet(row: WalletRow): WalletOut & CustomerWalletOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    customer_id: row.customer_id,
    balance: row.balance,
    currency: row.currency,
  };
}

export function toWalletTransaction(row: WalletTransactionRow): WalletTransactionOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    wallet_id: row.wallet_id,
    kind: row.kind,
    amount: row.amount,
    balance_after: row.balance_after,
    order_id: row.order_id,
    refund_id: row.refund_id,
    description: row.description,
  };
}
