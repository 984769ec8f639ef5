// The data provider's calls for a purchase's seats (/v1/customer-seats): the seats of a
// subscription or an order, assigning one by email, revoking one, sending its invitation again.
import type { CustomerSeat, SeatsList } from "../api";
import { call } from "./request";

/** Which purchase the seats belong to: a subscription or a one-time order. */
export type SeatPurchase = { subscription_id: string } | { order_id: string };

export const seatMethods = {
  async listSeats(purchase: SeatPurchase) {
    return { data: await call<SeatsList>("GET", "/v1/customer-seats", { query: purchase }) };
  },
  async assignSeat(purchase: SeatPurchase, email: string) {
    return { data: await call<CustomerSeat>("POST", "/v1/customer-seats", { body: Object.assign({ email }, purchase) }) };
  },
  async revokeSeat(id: string) {
    return { data: await call<CustomerSeat>("DELETE", "/v1/customer-seats/{seat_id}", { path: { seat_id: id } }) };
  },
  async resendSeatInvitation(id: string) {
    return { data: await call<CustomerSeat>("POST", "/v1/customer-seats/{seat_id}/resend", { path: { seat_id: id } }) };
  },
};
