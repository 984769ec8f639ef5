// HTTP handlers of the seat operations: the merchant's, the invitee's claim (no credentials: the
// token is the secret) and the customer portal's for the buyer (its owner and billing managers).
import { orgCaller, portalCustomer, type Handlers } from "../kit/context.js";
import {
  assignSeat,
  claimSeat,
  getClaimInfo,
  listSeats,
  portalAssignSeat,
  portalClaimedSubscriptions,
  portalListSeats,
  portalResendInvitation,
  portalRevokeSeat,
  resendInvitation,
  revokeSeat,
} from "./service.js";

type SeatOps =
  | "customer-seats:assign_seat"
  | "customer-seats:list_seats"
  | "customer-seats:revoke_seat"
  | "customer-seats:resend_invitation"
  | "customer-seats:get_claim_info"
  | "customer-seats:claim_seat"
  | "customer_portal:seats:list_seats"
  | "customer_portal:seats:assign_seat"
  | "customer_portal:seats:revoke_seat"
  | "customer_portal:seats:resend_invitation"
  | "customer_portal:seats:list_claimed_subscriptions";

export const seatHandlers: Handlers<SeatOps> = {
  "customer-seats:assign_seat": async ({ body }, ctx) => ({ status: 200, body: await assignSeat(ctx.db, orgCaller(ctx), body) }),
  "customer-seats:list_seats": async ({ query }, ctx) => ({ status: 200, body: await listSeats(ctx.db, orgCaller(ctx), query) }),
  "customer-seats:revoke_seat": async ({ params }, ctx) => ({
    status: 200,
    body: await revokeSeat(ctx.db, orgCaller(ctx), params.seat_id),
  }),
  "customer-seats:resend_invitation": async ({ params }, ctx) => ({
    status: 200,
    body: await resendInvitation(ctx.db, orgCaller(ctx), params.seat_id),
  }),
  "customer-seats:get_claim_info": async ({ params }, ctx) => ({ status: 200, body: await getClaimInfo(ctx.db, params.invitation_token) }),
  "customer-seats:claim_seat": async ({ body }, ctx) => ({ status: 200, body: await claimSeat(ctx.db, body.invitation_token) }),
  "customer_portal:seats:list_seats": async ({ query }, ctx) => ({
    status: 200,
    body: await portalListSeats(ctx.db, portalCustomer(ctx), query),
  }),
  "customer_portal:seats:assign_seat": async ({ body }, ctx) => ({
    status: 200,
    body: await portalAssignSeat(ctx.db, portalCustomer(ctx), body),
  }),
  "customer_portal:seats:revoke_seat": async ({ params }, ctx) => ({
    status: 200,
    body: await portalRevokeSeat(ctx.db, portalCustomer(ctx), params.seat_id),
  }),
  "customer_portal:seats:resend_invitation": async ({ params }, ctx) => ({
    status: 200,
    body: await portalResendInvitation(ctx.db, portalCustomer(ctx), params.seat_id),
  }),
  "customer_portal:seats:list_claimed_subscriptions": async ({ query }, ctx) => ({
    status: 200,
    body: await portalClaimedSubscriptions(ctx.db, portalCustomer(ctx), query),
  }),
};
