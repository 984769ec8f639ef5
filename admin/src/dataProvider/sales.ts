// The data provider's calls beyond CRUD for orders, customers, subscriptions, products and disputes: the
// contract's actions, each one request; screens reach them through useDataProvider().
import type { CustomerSession, CustomerState, Dispute, EmailSend, Member, Order, OrderInvoice, OrderReceipt, Subscription } from "../api";
import { call } from "./request";

export const salesMethods = {
  async refundOrder(body: Record<string, unknown>) {
    return { data: await call<unknown>("POST", "/v1/refunds/", { body }) };
  },
  /** Asks for the invoice PDF; the server generates it in the background. */
  async generateInvoice(orderId: string) {
    return { data: await call<unknown>("POST", "/v1/orders/{id}/invoice", { path: { id: orderId } }) };
  },
  async getInvoice(orderId: string) {
    return { data: await call<OrderInvoice>("GET", "/v1/orders/{id}/invoice", { path: { id: orderId } }) };
  },
  /** A paid order's receipt PDF (rendered by the server on first ask). */
  async getReceipt(orderId: string) {
    return { data: await call<OrderReceipt>("GET", "/v1/orders/{id}/receipt", { path: { id: orderId } }) };
  },
  /** Charges a draft order on the customer's saved card; a decline answers 402 and keeps the draft. */
  async finalizeOrder(orderId: string) {
    return { data: await call<Order>("POST", "/v1/orders/{id}/finalize", { path: { id: orderId }, body: {} }) };
  },
  async createCustomerSession(customerId: string) {
    return { data: await call<CustomerSession>("POST", "/v1/customer-sessions/", { body: { customer_id: customerId } }) };
  },
  async getCustomerState(customerId: string) {
    return { data: await call<CustomerState>("GET", "/v1/customers/{id}/state", { path: { id: customerId } }) };
  },
  async resendEmail(emailId: string) {
    return { data: await call<EmailSend>("POST", "/v1/emails/{id}/resend", { path: { id: emailId } }) };
  },
  /** A subscription's PATCH with the body as given (a cancel, a revoke, a product change…). */
  async updateSubscription(id: string, body: Record<string, unknown>) {
    return { data: await call<Subscription>("PATCH", "/v1/subscriptions/{id}", { path: { id }, body }) };
  },
  async setProductArchived(id: string, archived: boolean) {
    return { data: await call<unknown>("PATCH", "/v1/products/{id}", { path: { id }, body: { is_archived: archived } }) };
  },
  async setProductBenefits(id: string, benefitIds: string[]) {
    return { data: await call<unknown>("POST", "/v1/products/{id}/benefits", { path: { id }, body: { benefits: benefitIds } }) };
  },
  /** Concedes a dispute: the processor closes it as lost. */
  async acceptDispute(id: string) {
    return { data: await call<Dispute>("POST", "/v1/disputes/{id}/accept", { path: { id } }) };
  },
  /** Adds a member to a team customer (POST /v1/customers/{id}/members). */
  async addCustomerMember(customerId: string, body: { email: string; name?: string | null; role: "member" | "billing_manager" }) {
    return { data: await call<Member>("POST", "/v1/customers/{id}/members", { path: { id: customerId }, body }) };
  },
  async updateCustomerMember(customerId: string, memberId: string, body: { role?: Member["role"]; name?: string | null }) {
    return {
      data: await call<Member>("PATCH", "/v1/customers/{id}/members/{member_id}", { path: { id: customerId, member_id: memberId }, body }),
    };
  },
  async removeCustomerMember(customerId: string, memberId: string) {
    return {
      data: await call<unknown>("DELETE", "/v1/customers/{id}/members/{member_id}", { path: { id: customerId, member_id: memberId } }),
    };
  },
};
