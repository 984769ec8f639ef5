// Who a portal session is signed in as, through 0.49.0 (customerSession.getAuthenticatedUser).
import { describe, expect, it } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customer portal: the authenticated user", () => {
  it("is the session's customer", async () => {
    const { org } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id, { name: "Ada", email: "ada.user@example.com" });
    const portal = new Polar049({ serverURL: api.url });
    const customerSession = await createCustomerSessionToken(api.knex, customer.id);
    expect(await portal.customerPortal.customerSession.getAuthenticatedUser({ customerSession })).toEqual({
      type: "customer",
      name: "Ada",
      email: "ada.user@example.com",
      customerId: customer.id,
      memberId: null,
      role: null,
    });
  });

  it("answers 401 for an expired, revoked or unknown session", async () => {
    const { org } = await orgWithToken(api.knex);
    const customer = await createCustomer(api.knex, org.id);
    const portal = new Polar049({ serverURL: api.url });
    const tokens = [
      await createCustomerSessionToken(api.knex, customer.id, { expiresAt: new Date(Date.now() - 1000) }),
      await createCustomerSessionToken(api.knex, customer.id, { revokedAt: new Date() }),
      "polar_cst_nope",
    ];
    for (const customerSession of tokens) {
      const err = await rejects(portal.customerPortal.customerSession.getAuthenticatedUser({ customerSession }), SDKError);
      expect(err.statusCode).toBe(401);
    }
  });
});
