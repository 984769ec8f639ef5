// The portal's wallet: the customer's prepaid balance in each currency and its ledger (credits
// from the merchant, what orders spent, what refunds took back), newest first, a page at a time.
import { useState } from "react";
import { customerPortalWalletsList, customerPortalWalletsListTransactions } from "../../../../generated/client/sdk.gen.js";
import type { CustomerWallet, WalletTransaction } from "../../../../generated/client/types.gen.js";
import { call } from "../../api/errors.js";
import { Loading } from "../../ui/components.js";
import { formatDate, formatMoney, formatMoneyChange } from "../../ui/format.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { Failed, PageLink, Pager } from "./layout.js";

const LEDGER_PAGE = 20;

export function WalletSection() {
  const { client } = usePortal();
  const [wallets] = useLoad(() => call(customerPortalWalletsList({ client, query: { limit: 100 } })), [client]);
  if (wallets.state === "loading") return <Loading label="Loading your wallet…" />;
  if (wallets.state === "failed") return <Failed error={wallets.error} />;
  return (
    <section aria-labelledby="wallet-title">
      <h2 id="wallet-title">Wallet</h2>
      {wallets.data.items.length === 0 ? (
        <p className="empty" data-testid="wallet-empty">
          No prepaid balance yet.
        </p>
      ) : (
        <>
          <p className="muted">Orders in a wallet's currency are paid from its balance first; only the rest is charged to your card.</p>
          {wallets.data.items.map((w) => (
            <WalletCard key={w.id} wallet={w} />
          ))}
        </>
      )}
    </section>
  );
}

/** What a ledger entry was: the credit's reason, or a link to the order that spent the balance or was refunded. */
function Entry({ entry }: { entry: WalletTransaction }) {
  const { href } = usePortal();
  if (entry.kind === "credit") return <>{entry.description ?? "Credit"}</>;
  const label = entry.kind === "refund" ? "Refund of an order" : "Order";
  if (!entry.order_id) return <>{label}</>;
  return <PageLink to={`${href("orders")}?order=${encodeURIComponent(entry.order_id)}`}>{label}</PageLink>;
}

function WalletCard({ wallet }: { wallet: CustomerWallet }) {
  const { client } = usePortal();
  const [page, setPage] = useState(1);
  const [ledger] = useLoad(
    () => call(customerPortalWalletsListTransactions({ client, path: { id: wallet.id }, query: { page, limit: LEDGER_PAGE } })),
    [client, wallet.id, page],
  );
  const currency = wallet.currency.toUpperCase();
  const titleId = `wallet-${wallet.id}`;
  return (
    <article className="card" aria-labelledby={titleId} data-testid="wallet">
      <div className="row">
        <h3 id={titleId}>Balance in {currency}</h3>
        <span className="wallet__balance" data-testid="wallet-balance">
          {formatMoney(wallet.balance, wallet.currency)}
        </span>
      </div>
      {ledger.state === "loading" ? <Loading label="Loading the ledger…" /> : null}
      {ledger.state === "failed" ? <Failed error={ledger.error} /> : null}
      {ledger.state === "ready" && ledger.data.items.length === 0 ? <p className="empty">No entries yet.</p> : null}
      {ledger.state === "ready" && ledger.data.items.length > 0 ? (
        // Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too.
        <div className="table-wrap" tabIndex={0} role="region" aria-label={`Ledger of the ${currency} balance`}>
          <table className="table">
            <caption className="visually-hidden">Ledger of the {currency} balance, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Entry</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {ledger.data.items.map((t) => (
                <tr key={t.id} data-testid="wallet-entry">
                  <td>{formatDate(t.created_at)}</td>
                  <td>
                    <Entry entry={t} />
                  </td>
                  <td className="num">{formatMoneyChange(t.amount, wallet.currency)}</td>
                  <td className="num">{formatMoney(t.balance_after, wallet.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {ledger.state === "ready" ? (
        <Pager label={`Pages of the ${currency} ledger`} page={page} maxPage={ledger.data.pagination.max_page} onPage={setPage} />
      ) : null}
    </article>
  );
}
