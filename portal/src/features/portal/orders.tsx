// Orders: what the customer paid (or owes), each with its lines, the invoice to download (made on
// request: generated, then fetched once ready), and paying a failed order again with the default
// card or a new one.
import { useCallback, useRef, useState } from "react";
import {
  customerPortalOrdersConfirmRetryPayment,
  customerPortalOrdersGenerateInvoice,
  customerPortalOrdersGet,
  customerPortalOrdersGetPaymentStatus,
  customerPortalOrdersInvoice,
  customerPortalOrdersReceipt,
  customerPortalOrdersList,
} from "../../../../generated/client/sdk.gen.js";
import type { CustomerOrder } from "../../../../generated/client/types.gen.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, Button, Loading } from "../../ui/components.js";
import { formatDate, formatMoney } from "../../ui/format.js";
import { CardForm, type PaymentCollector } from "../checkout/payment.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { useLocation } from "../../router.js";
import { Failed, Opened, Pager } from "./layout.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const REASONS: Record<string, string> = {
  purchase: "Purchase",
  subscription_create: "Subscription",
  subscription_cycle: "Renewal",
  subscription_update: "Plan change",
};

/** The receipt of a paid order: the server renders it on first ask. */
function ReceiptButton({ order, onError }: { order: CustomerOrder; onError: (message: string) => void }) {
  const { client } = usePortal();
  const [busy, setBusy] = useState(false);
  if (!order.receipt_number) return null;
  const open = async () => {
    setBusy(true);
    try {
      const receipt = await call(customerPortalOrdersReceipt({ client, path: { id: order.id } }));
      window.open(receipt.url, "_blank", "noopener");
    } catch (err) {
      onError(err instanceof ApiFailure ? err.detail : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button busy={busy} onClick={() => void open()} label={`Download the receipt of ${formatDate(order.created_at)}`}>
      {busy ? "Preparing receipt…" : "Download receipt"}
    </Button>
  );
}

function InvoiceButton({ order, onError }: { order: CustomerOrder; onError: (message: string) => void }) {
  const { client } = usePortal();
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    try {
      if (!order.is_invoice_generated) {
        await send(customerPortalOrdersGenerateInvoice({ client, path: { id: order.id } })).catch((err: unknown) => {
          // Made already (another tab, an earlier click): fetch it.
          if (!(err instanceof ApiFailure && err.errorName === "InvoiceAlreadyExists")) throw err;
        });
        // The invoice is made in the background: wait for it (30 s at most).
        for (let i = 0; i < 60; i++) {
          const current = await call(customerPortalOrdersGet({ client, path: { id: order.id } }));
          if (current.is_invoice_generated) break;
          await sleep(500);
        }
      }
      const invoice = await call(customerPortalOrdersInvoice({ client, path: { id: order.id } }));
      setUrl(invoice.url);
      window.open(invoice.url, "_blank", "noopener");
    } catch (err) {
      if (err instanceof ApiFailure && err.errorName === "MissingInvoiceBillingDetails") {
        onError("An invoice needs your billing name and address: add them under Billing details first.");
      } else onError(err instanceof ApiFailure ? err.detail : String(err));
    } finally {
      setBusy(false);
    }
  };
  if (!order.paid) return null;
  return (
    <span className="row">
      <Button busy={busy} onClick={() => void download()} label={`Download the invoice of ${formatDate(order.created_at)}`}>
        {busy ? "Preparing invoice…" : "Download invoice"}
      </Button>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer" data-testid="invoice-link">
          Open invoice
        </a>
      ) : null}
    </span>
  );
}

function PayAgain({ order, onPaid }: { order: CustomerOrder; onPaid: () => void }) {
  const { client, customer } = usePortal();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error"; text: string } | null>(null);
  const collector = useRef<PaymentCollector | null>(null);
  const register = useCallback((c: PaymentCollector) => (collector.current = c), []);
  const pay = async (withNewCard: boolean) => {
    setBusy(true);
    setMessage(null);
    try {
      let body: { payment_method_id: string } | { confirmation_token_id: string };
      if (withNewCard) {
        const token = await collector.current?.token();
        if (!token) return;
        body = { confirmation_token_id: token };
      } else if (customer.default_payment_method_id) body = { payment_method_id: customer.default_payment_method_id };
      else return setOpen(true);
      const result = await call(
        customerPortalOrdersConfirmRetryPayment({ client, path: { id: order.id }, body: { ...body, payment_processor: "stripe" } }),
      );
      if (result.status === "succeeded") onPaid();
      else if (result.status === "requires_action" && result.client_secret && collector.current?.authenticate) {
        await collector.current.authenticate(result.client_secret);
        const status = await call(customerPortalOrdersGetPaymentStatus({ client, path: { id: order.id } }));
        if (status.status === "succeeded") onPaid();
        else setMessage({ kind: "error", text: status.error ?? "The payment is not complete." });
      } else setMessage({ kind: "error", text: result.error ?? "The payment did not go through." });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof ApiFailure ? err.detail : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="pay-again">
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      <div className="actions">
        {customer.default_payment_method_id ? (
          <Button kind="primary" busy={busy && !open} onClick={() => void pay(false)}>
            Pay {formatMoney(order.total_amount, order.currency)} with your saved card
          </Button>
        ) : null}
        <Button onClick={() => setOpen((o) => !o)}>{open ? "Hide the card form" : "Pay with another card"}</Button>
      </div>
      {open ? (
        <div className="card">
          <CardForm
            intent={{ amount: order.total_amount, currency: order.currency, saveForLater: false }}
            register={register}
            declined={null}
          />
          <Button kind="primary" busy={busy} onClick={() => void pay(true)}>
            Pay {formatMoney(order.total_amount, order.currency)}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function OrderCard({ order, onChanged }: { order: CustomerOrder; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  // Kept here, not in PayAgain: the order reloads as paid and PayAgain goes away with it.
  const [paid, setPaid] = useState(false);
  return (
    <article className="card order" aria-labelledby={`order-${order.id}`}>
      <div className="row">
        <h3 id={`order-${order.id}`}>
          {order.product.name} <span className="muted">· {REASONS[order.billing_reason] ?? order.billing_reason}</span>
        </h3>
        <span className={`badge badge--${order.status}`}>{order.status.replace("_", " ")}</span>
      </div>
      <p className="muted">{formatDate(order.created_at)}</p>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Lines of this order</caption>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.label}</th>
                <td className="num">{formatMoney(item.amount, order.currency)}</td>
              </tr>
            ))}
            {order.discount_amount ? (
              <tr>
                <th scope="row">Discount</th>
                <td className="num">−{formatMoney(order.discount_amount, order.currency)}</td>
              </tr>
            ) : null}
            {order.refunded_amount ? (
              <tr>
                <th scope="row">Refunded</th>
                <td className="num">−{formatMoney(order.refunded_amount, order.currency)}</td>
              </tr>
            ) : null}
            <tr className="table__total">
              <th scope="row">Total</th>
              <td className="num">{formatMoney(order.total_amount, order.currency)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {paid ? <Alert kind="success">Paid. Thank you!</Alert> : null}
      <InvoiceButton order={order} onError={setError} />
      <ReceiptButton order={order} onError={setError} />
      {order.status === "pending" && order.total_amount > 0 ? (
        <>
          <Alert kind="warning" title="Payment needed">
            <p>
              The payment for this order did not go through.
              {order.next_payment_attempt_at ? ` We'll try again on ${formatDate(order.next_payment_attempt_at)}.` : ""}
            </p>
          </Alert>
          <PayAgain
            order={order}
            onPaid={() => {
              setPaid(true);
              onChanged();
            }}
          />
        </>
      ) : null}
    </article>
  );
}

/** The order a link opened (an email's "View your order"): that order alone, and the way to all orders. */
function OpenedOrder({ id }: { id: string }) {
  const { client } = usePortal();
  const [order, reload] = useLoad(() => call(customerPortalOrdersGet({ client, path: { id } })), [client, id]);
  return (
    <Opened title="Your order" section="orders" all="All orders" record={order}>
      {(o) => <OrderCard order={o} onChanged={reload} />}
    </Opened>
  );
}

/** The customer's orders, newest first; `?order=<id>` opens one of them. */
export function OrdersSection() {
  const opened = useLocation().search.get("order");
  return opened ? <OpenedOrder id={opened} /> : <OrderList />;
}

function OrderList() {
  const { client } = usePortal();
  const [page, setPage] = useState(1);
  const [orders, reload] = useLoad(
    () => call(customerPortalOrdersList({ client, query: { page, limit: 10, sorting: ["-created_at"] } })),
    [client, page],
  );
  if (orders.state === "loading") return <Loading label="Loading your orders…" />;
  if (orders.state === "failed") return <Failed error={orders.error} />;
  const { items, pagination } = orders.data;
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">Orders</h2>
      {items.length === 0 ? (
        <p className="empty">No orders yet.</p>
      ) : (
        items.map((o) => <OrderCard key={o.id} order={o} onChanged={reload} />)
      )}
      <Pager label="Pages of orders" page={page} maxPage={pagination.max_page} onPage={setPage} />
    </section>
  );
}
