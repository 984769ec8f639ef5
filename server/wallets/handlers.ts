// HTTP handlers of the wallet operations: the portal's reads of the session's customer, the
// merchant's list and credit.
import { orgCaller, portalCustomer, type Handlers } from "../kit/context.js";
import { creditWallet, getPortalWallet, listPortalWallets, listPortalWalletTransactions, listWallets } from "./service.js";

type WalletOps =
  | "customer_portal:wallets:list"
  | "customer_portal:wallets:get"
  | "customer_portal:wallets:list_transactions"
  | "wallets:list"
  | "wallets:credit";

export const walletHandlers: Handlers<WalletOps> = {
  "customer_portal:wallets:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listPortalWallets(ctx.db, portalCustomer(ctx), query),
  }),
  "customer_portal:wallets:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getPortalWallet(ctx.db, portalCustomer(ctx), params.id),
  }),
  "customer_portal:wallets:list_transactions": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listPortalWalletTransactions(ctx.db, portalCustomer(ctx), params.id, query),
  }),
  "wallets:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listWallets(ctx.db, orgCaller(ctx), query),
  }),
  "wallets:credit": async ({ body }, ctx) => ({
    status: 201,
    body: await creditWallet(ctx.uow, orgCaller(ctx), body),
  }),
};
