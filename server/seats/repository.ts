// Queries on customer_seats and on the seats a subscription or an order bought, always scoped to
// the caller's organization (a claim's token is the one read without it: the token is the secret).
import type { Knex } from "knex";
import { insertReturning, updateReturning } from "../kit/rows.js";

export type SeatStatus = "pending" | "claimed" | "revoked";

export interface SeatRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  subscription_id: string | null;
  order_id: string | null;
  status: SeatStatus;
  customer_id: string | null;
  member_id: string | null;
  email: string | null;
  invitation_token: string | null;
  invitation_token_expires_at: Date | null;
  claimed_at: Date | null;
  revoked_at: Date | null;
  seat_metadata: Record<string, unknown>;
}

/** What seats are bought with: a subscription or an order, and who bought it. */
export interface SeatContainer {
  column: "subscription_id" | "order_id";
  id: string;
  organization_id: string;
  /** The buyer (billing customer). */
  customer_id: string;
  product_id: string;
  status: string;
  seats: number | null;
}

/** The container's seats, oldest first. */
export function seatsOf(db: Knex, container: SeatContainer): Promise<SeatRow[]> {
  return db("customer_seats")
    .where({ organization_id: container.organization_id, [container.column]: container.id })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select<SeatRow[]>("*");
}

/** How many of the container's seats are assigned (pending or claimed). */
export async function assignedCount(db: Knex, container: SeatContainer): Promise<number> {
  const row = (await db("customer_seats")
    .where({ [container.column]: container.id })
    .whereNot({ status: "revoked" })
    .count({ n: "*" })
    .first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

/** The container's live seat of this holder. */
export function liveSeatOf(db: Knex, container: SeatContainer, customerId: string): Promise<SeatRow | undefined> {
  return db("customer_seats")
    .where({ [container.column]: container.id, customer_id: customerId })
    .whereNot({ status: "revoked" })
    .first<SeatRow | undefined>("*");
}

/** A revoked seat of the container to hand out again (Polar reuses them), locked. */
export function revokedSeatOf(db: Knex, container: SeatContainer): Promise<SeatRow | undefined> {
  return db("customer_seats")
    .where({ [container.column]: container.id, status: "revoked" })
    .orderBy("created_at")
    .forUpdate()
    .first<SeatRow | undefined>("*");
}

/** The organization's seat, locked when `forUpdate`. */
export function findSeat(db: Knex, organizationId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<SeatRow | undefined> {
  const q = db("customer_seats").where({ organization_id: organizationId, id }).first<SeatRow | undefined>("*");
  return opts.forUpdate ? q.forUpdate() : q;
}

/** The seat an invitation token names, locked when `forUpdate`. */
export function seatByToken(db: Knex, token: string, opts: { forUpdate?: boolean } = {}): Promise<SeatRow | undefined> {
  const q = db("customer_seats").where({ invitation_token: token }).first<SeatRow | undefined>("*");
  return opts.forUpdate ? q.forUpdate() : q;
}

export function insertSeat(db: Knex, values: Partial<SeatRow>): Promise<SeatRow> {
  return insertReturning<SeatRow>(
    db,
    "customer_seats",
    Object.assign({}, values, { seat_metadata: JSON.stringify(values.seat_metadata ?? {}) }),
  );
}

export function updateSeat(db: Knex, id: string, patch: Partial<SeatRow>): Promise<SeatRow> {
  const values: Record<string, unknown> = Object.assign({}, patch, { modified_at: new Date() });
  if (patch.seat_metadata) values.seat_metadata = JSON.stringify(patch.seat_metadata);
  return updateReturning<SeatRow>(db, "customer_seats", id, values);
}

/** A subquery: ids of the subscriptions whose seat the customer holds (claimed). */
export function claimedSubscriptionIds(db: Knex, customerId: string): Knex.QueryBuilder {
  return db("customer_seats")
    .where({ customer_id: customerId, status: "claimed" })
    .whereNotNull("subscription_id")
    .select("subscription_id");
}

/** The purchase's live (pending or claimed) seats, oldest first: its end revokes them. */
export function liveSeatsOf(db: Knex, key: { column: SeatContainer["column"]; id: string }): Promise<SeatRow[]> {
  return db("customer_seats")
    .where({ [key.column]: key.id })
    .whereNot({ status: "revoked" })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select<SeatRow[]>("*");
}
