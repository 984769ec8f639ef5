// The portal's seats: the buyer of a seat-based subscription or one-time order (the customer, or
// its team's owner or billing manager) sees each purchase's seats, invites someone by email,
// resends a pending invitation and revokes a seat. The server holds every rule.
import { useState } from "react";
import {
  customerPortalOrdersList,
  customerPortalSeatsAssignSeat,
  customerPortalSeatsListSeats,
  customerPortalSeatsResendInvitation,
  customerPortalSeatsRevokeSeat,
  customerPortalSubscriptionsList,
} from "../../../../generated/client/sdk.gen.js";
import type { CustomerSeat, SeatsList } from "../../../../generated/client/types.gen.js";
import type { Client } from "../../../../generated/client/client/index.js";
import { ApiFailure, call } from "../../api/errors.js";
import { Alert, aria, Button, Field, Loading } from "../../ui/components.js";
import { formatDate } from "../../ui/format.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { Failed } from "./layout.js";

type PurchaseId = { subscription_id: string } | { order_id: string };

interface Purchase {
  key: string;
  name: string;
  id: PurchaseId;
  seats: SeatsList;
}

interface Note {
  kind: "error" | "success";
  text: string;
}

const messageOf = (err: unknown) => (err instanceof ApiFailure ? err.detail : String(err));

/** The customer's active subscriptions and one-time orders that have seats, with their seats. */
async function purchasesWithSeats(client: Client): Promise<Purchase[]> {
  const [subscriptions, orders] = await Promise.all([
    call(customerPortalSubscriptionsList({ client, query: { active: true, limit: 100 } })),
    call(customerPortalOrdersList({ client, query: { product_billing_type: ["one_time"], limit: 100, sorting: ["-created_at"] } })),
  ]);
  const candidates: Omit<Purchase, "seats">[] = [
    ...subscriptions.items.map((s) => ({ key: s.id, name: s.product.name, id: { subscription_id: s.id } })),
    ...orders.items
      .filter((o) => o.paid)
      .map((o) => ({ key: o.id, name: `${o.product.name} · order of ${formatDate(o.created_at)}`, id: { order_id: o.id } })),
  ];
  const listed = await Promise.all(
    candidates.map(async (c) => Object.assign({}, c, { seats: await call(customerPortalSeatsListSeats({ client, query: c.id })) })),
  );
  return listed.filter((p) => p.seats.total_seats > 0);
}

export function SeatsSection() {
  const { client } = usePortal();
  const [purchases] = useLoad(() => purchasesWithSeats(client), [client]);
  if (purchases.state === "loading") return <Loading label="Loading your seats…" />;
  if (purchases.state === "failed") return <Failed error={purchases.error} />;
  return (
    <section aria-labelledby="seats-title">
      <h2 id="seats-title">Seats</h2>
      {purchases.data.length === 0 ? (
        <p className="empty" data-testid="seats-empty">
          None of your purchases has seats to hand out.
        </p>
      ) : (
        purchases.data.map((p) => <SeatsOfPurchase key={p.key} purchase={p} />)
      )}
    </section>
  );
}

const STATUS: Record<CustomerSeat["status"], { label: string; badge: string }> = {
  pending: { label: "Invited", badge: "badge" },
  claimed: { label: "Claimed", badge: "badge badge--active" },
  revoked: { label: "Revoked", badge: "badge badge--revoked" },
};

function SeatsOfPurchase({ purchase }: { purchase: Purchase }) {
  const { client } = usePortal();
  const [seats, setSeats] = useState<SeatsList>(purchase.seats);
  const [email, setEmail] = useState("");
  const [assignErrors, setAssignErrors] = useState<{ email?: string; form?: string }>({});
  const [rowMessages, setRowMessages] = useState<Record<string, Note | null>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const titleId = `seats-${purchase.key}`;

  const note = (id: string, value: Note | null) => setRowMessages((m) => Object.assign({}, m, { [id]: value }));
  const refresh = async () => setSeats(await call(customerPortalSeatsListSeats({ client, query: purchase.id })));
  const assign = async () => {
    setAssignErrors({});
    if (!email.trim()) return setAssignErrors({ email: "Enter the email of the person to invite." });
    setBusy("assign");
    try {
      await call(customerPortalSeatsAssignSeat({ client, body: Object.assign({ email: email.trim() }, purchase.id) }));
      setEmail("");
      await refresh();
    } catch (err) {
      if (err instanceof ApiFailure && (err.fields.email || err.errorName === "SeatAlreadyAssigned")) {
        setAssignErrors({ email: err.fields.email ?? err.detail });
      } else setAssignErrors({ form: messageOf(err) });
    } finally {
      setBusy(null);
    }
  };
  const act = async (seat: CustomerSeat, what: "resend" | "revoke") => {
    setBusy(`${what}:${seat.id}`);
    note(seat.id, null);
    try {
      if (what === "resend") {
        const sent = await call(customerPortalSeatsResendInvitation({ client, path: { seat_id: seat.id } }));
        note(seat.id, { kind: "success", text: `Invitation sent again to ${sent.email ?? "them"}.` });
      } else await call(customerPortalSeatsRevokeSeat({ client, path: { seat_id: seat.id } }));
      await refresh();
    } catch (err) {
      note(seat.id, { kind: "error", text: messageOf(err) });
    } finally {
      setBusy(null);
    }
  };

  const live = seats.seats.filter((s) => s.status !== "revoked");
  return (
    <article className="card" aria-labelledby={titleId} data-testid="seat-purchase">
      <div className="section-title">
        <h3 id={titleId}>{purchase.name}</h3>
        <span className="muted" data-testid="seats-available">
          {seats.available_seats} of {seats.total_seats} seats available
        </span>
      </div>
      <form
        noValidate
        aria-label={`Invite someone to ${purchase.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void assign();
        }}
      >
        <Field label="Email" error={assignErrors.email} help="They get an email with a link to claim the seat.">
          {(ids) => <input {...aria(ids)} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        {assignErrors.form ? <Alert kind="error">{assignErrors.form}</Alert> : null}
        <div className="actions">
          <Button kind="primary" type="submit" busy={busy === "assign"} disabled={seats.available_seats === 0}>
            Send invitation
          </Button>
          {seats.available_seats === 0 ? <span className="muted">Every seat is taken: revoke one to invite someone else.</span> : null}
        </div>
      </form>
      {live.length === 0 ? (
        <p className="empty">No seat handed out yet.</p>
      ) : (
        <ul className="list">
          {live.map((s) => {
            const who = s.customer_email ?? s.email ?? "—";
            const status = STATUS[s.status];
            const message = rowMessages[s.id];
            return (
              <li key={s.id} className="seat" data-testid="seat">
                <div className="row">
                  <span>
                    <span className="seat__who">{who}</span> <span className={status.badge}>{status.label}</span>
                    <br />
                    <span className="muted">
                      {s.status === "pending"
                        ? `Invitation valid until ${formatDate(s.invitation_token_expires_at)}`
                        : `Claimed on ${formatDate(s.claimed_at)}`}
                    </span>
                  </span>
                  <span className="row">
                    {s.status === "pending" ? (
                      <Button
                        busy={busy === `resend:${s.id}`}
                        label={`Resend the invitation to ${who}`}
                        onClick={() => void act(s, "resend")}
                      >
                        Resend
                      </Button>
                    ) : null}
                    <Button
                      kind="danger"
                      busy={busy === `revoke:${s.id}`}
                      label={`Revoke the seat of ${who}`}
                      onClick={() => void act(s, "revoke")}
                    >
                      Revoke
                    </Button>
                  </span>
                </div>
                {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
