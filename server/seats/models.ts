// A seat as the merchant API, the portal and the customer_seat.* webhooks show it (CustomerSeat).
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { MemberRow } from "../members/repository.js";
import { toMember } from "../members/models.js";
import type { SeatRow } from "./repository.js";

export type SeatOut = components["schemas"]["CustomerSeat"];
export type SeatsListOut = components["schemas"]["SeatsList"];
export type SeatClaimInfoOut = components["schemas"]["SeatClaimInfo"];

/** The seat with its member and its holder's email, as they are. */
export function toSeat(row: SeatRow, member: MemberRow | undefined, customerEmail: string | null): SeatOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    subscription_id: row.subscription_id,
    order_id: row.order_id,
    status: row.status,
    customer_id: row.customer_id,
    member_id: row.member_id,
    member: member ? toMember(member) : null,
    email: row.email,
    customer_email: customerEmail,
    invitation_token_expires_at: iso(row.invitation_token_expires_at),
    claimed_at: iso(row.claimed_at),
    revoked_at: iso(row.revoked_at),
    seat_metadata: row.seat_metadata,
  };
}
