// The portal's refusals of a subscription change in Polar's bodies (UpdateSubscriptionPlanNotAllowed,
// PauseResumeNotAllowed), the subscription.update_cleared system event, and a pending update
// through cancel, uncancel, the end and a revoke: kept, never applied, still clearable, as Polar.
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { PauseResumeNotAllowed } from "polar-sdk-049/models/errors/pauseresumenotallowed.js";
import { ResourceNotFound } from "polar-sdk-049/models/errors/resourcenotfound.js";
import { ResponseValidationError } from "polar-sdk-049/models/errors/responsevalidationerror.js";
import { beforeAll, describe, expect, it } from "vitest";
import { runStep } from "../../server/subscriptions/billing.js";
import { createCustomerSessionToken, createSubscriptionFixture, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const PLAN_REFUSED = { error: "UpdateSubscriptionPlanNotAllowed", detail: "Updating subscription plan is not allowed." };

describe("portal subscription changes", () => {
  let polar: Polar049;
  let token: string;
  let orgId: string;
  let pro: string;
  const portal = () => api.client049("").customerPortal.subscriptions;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client049(token);
    const product = await polar.products.create({
      name: "Pro",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd" }],
    });
    pro = product.id;
  });

  /** A subscription (2028-01-01 to 02-01) on a test clock at half of it, with a portal session. */
  async function subscription() {
    const [clock] = await api.knex("test_clocks").insert({ organization_id: orgId, frozen_time: "2028-01-16T12:00:00Z" }).returning("id");
    const f = await createSubscriptionFixture(api.knex, {
      startedAt: new Date("2028-01-01T00:00:00Z"),
      organizationId: orgId,
      overrides: { test_clock_id: clock.id },
    });
    const session = { customerSession: await createCustomerSessionToken(api.knex, f.customerId) };
    return { id: f.subscription.id, productId: f.productId, clockId: clock.id as string, session };
  }

  async function updatePlan(allowed: boolean) {
    const res = await fetch(`${api.url}/v1/organizations/${orgId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ customer_portal_settings: { subscription: { update_plan: allowed } } }),
    });
    expect(res.status).toBe(200);
  }

  const cleared = async (subscriptionId: string) =>
    (await polar.events.list({ organizationId: orgId, name: "subscription.update_cleared", limit: 100 })).items.filter(
      (e) => e.source === "system" && e.name === "subscription.update_cleared" && e.metadata.subscriptionId === subscriptionId,
    );

  it("refuses a plan change with 403 UpdateSubscriptionPlanNotAllowed where the organization does not allow it", async () => {
    const sub = await subscription();
    await updatePlan(false);
    try {
      // 0.49.0 declares no model for it on this call (nor does Polar): its client raises a ResponseValidationError.
      const refused = await rejects(
        portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { productId: pro } }),
        ResponseValidationError,
      );
      expect([refused.statusCode, JSON.parse(refused.body)]).toEqual([403, PLAN_REFUSED]);
      // The preview answers the same, as Polar's change preview.
      const preview = await fetch(`${api.url}/v1/customer-portal/subscriptions/${sub.id}/preview?product_id=${pro}`, {
        headers: { authorization: `Bearer ${sub.session.customerSession}` },
      });
      expect([preview.status, await preview.json()]).toEqual([403, PLAN_REFUSED]);
      // Before any other check: an ended subscription is refused the same.
      await portal().cancel(sub.session, { id: sub.id });
      const ended = await rejects(
        portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { productId: pro } }),
        ResponseValidationError,
      );
      expect([ended.statusCode, JSON.parse(ended.body)]).toEqual([403, PLAN_REFUSED]);
    } finally {
      await updatePlan(true);
    }
    expect((await api.knex("subscriptions").where({ id: sub.id }).first()).product_id).toBe(sub.productId);
  });

  it("refuses a pause or a resume with 403 PauseResumeNotAllowed, after Polar's body checks", async () => {
    const sub = await subscription();
    for (const change of [{ pauseAtPeriodEnd: true }, { pauseAtPeriodEnd: false }, { resume: true as const }]) {
      const refused = await rejects(
        portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: change }),
        PauseResumeNotAllowed,
      );
      expect([refused.statusCode, refused.error, refused.detail]).toEqual([
        403,
        "PauseResumeNotAllowed",
        "Pausing or resuming a subscription is not allowed.",
      ]);
    }
    const past = await rejects(
      portal().update(sub.session, {
        id: sub.id,
        customerSubscriptionUpdate: { pauseAtPeriodEnd: true, resumesAt: new Date("2020-01-01T00:00:00Z") },
      }),
      HTTPValidationError,
    );
    expect(past.detail?.map((d) => d.loc)).toEqual([["body", "resumes_at"]]);
    await rejects(
      portal().update(sub.session, { id: "00000000-0000-4000-8000-000000000000", customerSubscriptionUpdate: { resume: true } }),
      ResourceNotFound,
    );
    const row = await api.knex("subscriptions").where({ id: sub.id }).first();
    expect([row.status, row.cancel_at_period_end]).toEqual(["active", false]);
  });

  it("records subscription.update_cleared when the customer or the merchant clears what waits", async () => {
    const sub = await subscription();
    const next = { id: sub.id, subscriptionUpdate: { productId: pro, prorationBehavior: "next_period" as const } };
    await polar.subscriptions.update(next);
    expect(await cleared(sub.id)).toEqual([]);
    expect(
      (await portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { pendingUpdate: null } })).pendingUpdate,
    ).toBeNull();
    const [event] = await cleared(sub.id);
    expect(event).toMatchObject({
      source: "system",
      name: "subscription.update_cleared",
      label: "Subscription update cleared",
      customerId: expect.any(String),
      metadata: { subscriptionId: sub.id },
    });
    // At the subscription's own time (its test clock's).
    expect(event.timestamp.toISOString()).toBe("2028-01-16T12:00:00.000Z");
    const [stored] = await api.knex("events").where({ organization_id: orgId, name: "subscription.update_cleared" }).select("metadata");
    expect(stored.metadata).toEqual({ subscription_id: sub.id });

    await polar.subscriptions.update(next);
    expect((await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { pendingUpdate: null } })).pendingUpdate).toBeNull();
    expect(await cleared(sub.id)).toHaveLength(2);
    // Nothing waiting: a 422, and no event.
    await rejects(polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { pendingUpdate: null } }), HTTPValidationError);
    expect(await cleared(sub.id)).toHaveLength(2);
  });

  it("keeps a pending update through cancel, uncancel, the end and a revoke, never applies it, and clears it still", async () => {
    const sub = await subscription();
    await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { productId: pro, prorationBehavior: "next_period" } });
    const canceled = await portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { cancelAtPeriodEnd: true } });
    expect(canceled).toMatchObject({ cancelAtPeriodEnd: true, pendingUpdate: { productId: pro } });
    const kept = await portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { cancelAtPeriodEnd: false } });
    expect(kept).toMatchObject({ cancelAtPeriodEnd: false, pendingUpdate: { productId: pro } });
    await polar.subscriptions.update({ id: sub.id, subscriptionUpdate: { cancelAtPeriodEnd: true } });

    // The period ends: the subscription ends on its product; what waited stays unapplied.
    await api.knex("test_clocks").where({ id: sub.clockId }).update({ frozen_time: "2028-02-02T00:00:00Z" });
    expect((await runStep(api.knex, sub.id, Date.now())).outcome).toBe("ended");
    const ended = await polar.subscriptions.get({ id: sub.id });
    expect(ended).toMatchObject({ status: "canceled", productId: sub.productId, pendingUpdate: { productId: pro } });
    expect(await api.knex("orders").where({ subscription_id: sub.id })).toEqual([]);
    const cleared1 = await portal().update(sub.session, { id: sub.id, customerSubscriptionUpdate: { pendingUpdate: null } });
    expect(cleared1).toMatchObject({ status: "canceled", pendingUpdate: null });
    expect(await cleared(sub.id)).toHaveLength(1);

    const revoked = await subscription();
    await polar.subscriptions.update({ id: revoked.id, subscriptionUpdate: { productId: pro, prorationBehavior: "next_period" } });
    expect(await polar.subscriptions.revoke({ id: revoked.id })).toMatchObject({ status: "canceled", pendingUpdate: { productId: pro } });
    expect((await polar.subscriptions.update({ id: revoked.id, subscriptionUpdate: { pendingUpdate: null } })).pendingUpdate).toBeNull();
    expect(await cleared(revoked.id)).toHaveLength(1);
  });
});
