// Customer sessions: a merchant opens one for a live customer of its organization (by id or by
// external id); the token (`polar_cst_…`) authenticates the customer portal until it expires.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { slugOf } from "../organizations/repository.js";
import { findReadable, liveById, type CustomerRow } from "../customers/repository.js";
import { findMember } from "../members/repository.js";
import { hashToken, randomToken, type CustomerCaller, type OrganizationCaller } from "../kit/auth.js";
import { invalid, Unauthorized } from "../kit/errors.js";
import { toCustomerSession, type CustomerSessionOut } from "./models.js";
import { findLiveSession, insertSession, sessionById } from "./repository.js";
import { checkHttpUrl } from "../kit/urls.js";
import { isoRequired } from "../kit/time.js";

/** How long a customer session lives (Polar's default: one hour). */
export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

export type CustomerSessionCreateInput = components["schemas"]["CustomerSessionCreate"];
export type CustomerCustomerSessionOut = components["schemas"]["CustomerCustomerSession"];
export type PortalAuthenticatedUserOut = components["schemas"]["PortalAuthenticatedUser"];

export async function createCustomerSession(
  db: Knex,
  caller: OrganizationCaller,
  input: CustomerSessionCreateInput,
): Promise<CustomerSessionOut> {
  return db.transaction(async (trx) => {
    const byId = "customer_id" in input;
    const customer = byId
      ? await findReadable(trx, caller, { id: input.customer_id })
      : await findReadable(trx, caller, { externalId: input.external_customer_id });
    if (!customer) {
      throw invalid(["body", byId ? "customer_id" : "external_customer_id"], "Customer does not exist.", "value_error");
    }
    const memberId = await sessionMember(trx, customer, input);
    const token = randomToken("polar_cst_");
    const row = await insertSession(trx, {
      customer_id: customer.id,
      member_id: memberId,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + CUSTOMER_SESSION_TTL_MS),
      return_url: checkHttpUrl(input.return_url, ["body", "return_url"]),
    });
    // The token's organization; gone only if it was deleted since the token was checked.
    const org = await slugOf(trx, caller.organizationId);
    if (!org) throw new Unauthorized("Invalid or expired token.");
    return toCustomerSession(row, token, customer, org.slug);
  });
}

/** The team member a session is opened for (by id or external id), a live member of the customer; null: none named. */
async function sessionMember(trx: Knex, customer: CustomerRow, input: CustomerSessionCreateInput): Promise<string | null> {
  const key = input.member_id ? { id: input.member_id } : input.external_member_id ? { externalId: input.external_member_id } : null;
  if (!key) return null;
  const member = await findMember(trx, customer.organization_id, customer.id, key);
  if (!member) throw invalid(["body", "id" in key ? "member_id" : "external_member_id"], "Member does not exist.", "value_error");
  return member.id;
}

/** The session a portal is signed in with: when it ends, and where it links back to. */
export async function introspectSession(db: Knex, caller: CustomerCaller): Promise<CustomerCustomerSessionOut> {
  const row = await sessionById(db, caller.sessionId);
  if (!row) throw new Unauthorized("Invalid or expired customer session.");
  return { expires_at: isoRequired(row.expires_at), return_url: row.return_url };
}

/** Who the portal session is signed in as: its member (a member's session; removed since: 401), else its customer. */
export async function authenticatedUser(db: Knex, caller: CustomerCaller): Promise<PortalAuthenticatedUserOut> {
  if (caller.memberId) {
    const member = await findMember(db, caller.organizationId, caller.customerId, { id: caller.memberId });
    if (!member) throw new Unauthorized("Invalid or expired customer session.");
    return {
      type: "member",
      name: member.name,
      email: member.email,
      customer_id: member.customer_id,
      member_id: member.id,
      role: member.role,
    };
  }
  const customer = await liveById(db, caller.customerId);
  if (!customer) throw new Unauthorized("Invalid or expired customer session.");
  return { type: "customer", name: customer.name, email: customer.email, customer_id: customer.id, member_id: null, role: null };
}

/** A live customer session: not expired, not revoked, and its customer not deleted. */
export async function authenticateCustomer(db: Knex, token: string | null): Promise<CustomerCaller> {
  if (!token) throw new Unauthorized("Missing bearer token.");
  if (!token.startsWith("polar_cst_")) throw new Unauthorized("Invalid or expired customer session.");
  const row = await findLiveSession(db, hashToken(token));
  if (!row) throw new Unauthorized("Invalid or expired customer session.");
  // A purchase's session sees nothing until server/customer-portal/purchase.ts says what it bought.
  const purchase = row.checkout_id ? { checkoutId: row.checkout_id, orders: [], subscriptions: [], grants: [], licenseKeys: [] } : null;
  return {
    kind: "customer",
    customerId: row.customer_id,
    organizationId: row.organization_id,
    sessionId: row.session_id,
    purchase,
    memberId: row.member_id,
  };
}
