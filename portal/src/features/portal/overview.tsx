// The portal's first page: the customer's live subscriptions, their latest orders, and how many
// benefits they hold, each leading to its section (only the sections the organization offers).
import {
  customerPortalBenefitGrantsList,
  customerPortalOrdersList,
  customerPortalSubscriptionsList,
} from "../../../../generated/client/sdk.gen.js";
import { call } from "../../api/errors.js";
import { Loading } from "../../ui/components.js";
import { formatDate, formatMoney, perInterval } from "../../ui/format.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { PageLink } from "./layout.js";

export function OverviewSection() {
  const { client, customer, sections, href } = usePortal();
  const [data] = useLoad(async () => {
    const [subs, orders, grants] = await Promise.all([
      sections.subscriptions ? call(customerPortalSubscriptionsList({ client, query: { active: true, limit: 10 } })) : null,
      sections.orders ? call(customerPortalOrdersList({ client, query: { limit: 3, sorting: ["-created_at"] } })) : null,
      sections.benefits ? call(customerPortalBenefitGrantsList({ client, query: { limit: 1 } })) : null,
    ]);
    return { subs, orders, grants };
  }, [client]);
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Welcome{customer.name ? `, ${customer.name}` : ""}</h2>
      {data.state === "loading" ? <Loading /> : null}
      {data.state === "failed" ? <p className="empty">{data.error.detail}</p> : null}
      {data.state === "ready" ? (
        <div className="stat-grid">
          {data.data.subs ? (
            <div className="card">
              <h3>Subscriptions</h3>
              {data.data.subs.items.length === 0 ? <p className="muted">No active subscription.</p> : null}
              <ul className="list">
                {data.data.subs.items.map((s) => (
                  <li key={s.id}>
                    <strong>{s.product.name}</strong> · {formatMoney(s.amount, s.currency)}
                    {perInterval(s.recurring_interval, s.recurring_interval_count)}
                    <br />
                    <span className="muted">
                      {s.cancel_at_period_end
                        ? `Ends ${formatDate(s.ends_at)}`
                        : s.status === "trialing"
                          ? `Free trial until ${formatDate(s.trial_end)}`
                          : `Renews ${formatDate(s.current_period_end)}`}
                    </span>
                  </li>
                ))}
              </ul>
              <PageLink to={href("subscriptions")}>Manage subscriptions</PageLink>
            </div>
          ) : null}
          {data.data.orders ? (
            <div className="card">
              <h3>Latest orders</h3>
              {data.data.orders.items.length === 0 ? <p className="muted">No orders yet.</p> : null}
              <ul className="list">
                {data.data.orders.items.map((o) => (
                  <li key={o.id}>
                    {o.product.name} · {formatMoney(o.total_amount, o.currency)} <span className="muted">{formatDate(o.created_at)}</span>
                  </li>
                ))}
              </ul>
              <PageLink to={href("orders")}>All orders</PageLink>
            </div>
          ) : null}
          {data.data.grants ? (
            <div className="card">
              <h3>Benefits</h3>
              <p>
                {data.data.grants.pagination.total_count} benefit{data.data.grants.pagination.total_count === 1 ? "" : "s"}
              </p>
              <PageLink to={href("benefits")}>License keys, downloads and access</PageLink>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
