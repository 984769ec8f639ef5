// The organization settings the 1.x client reads that Borealis does not offer, shown as off and
// refused on: `dispute_settings.auto_accept_below_amount`, `customer_email_settings.
// payment_method_expiration_reminder`; `onboarding_resubmission_requested_at` is never set.
import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  return { org, token, polar: createPolar({ accessToken: token, baseUrl: api.url }) };
}

async function patch(token: string, id: string, body: unknown) {
  const res = await fetch(`${api.url}/v1/organizations/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { detail: { loc: (string | number)[] }[] } };
}

describe("an organization's 1.x settings", () => {
  it("shows the ones not offered as off", async () => {
    const { org, polar } = await setup();
    const got = await polar.organizations.get(org.id);
    expect(got).toMatchObject({ onboarding_resubmission_requested_at: null, dispute_settings: { auto_accept_below_amount: null } });
    expect(got.customer_email_settings.payment_method_expiration_reminder).toBe(false);
    expect(got.customer_email_settings.order_confirmation).toBe(true);
  });

  it("refuses to switch on what is not offered, and accepts it off", async () => {
    const { org, token, polar } = await setup();
    const dispute = await patch(token, org.id, { dispute_settings: { auto_accept_below_amount: 1500 } });
    expect(dispute.status).toBe(422);
    expect(dispute.body.detail[0]?.loc).toEqual(["body", "dispute_settings", "auto_accept_below_amount"]);
    const reminder = await patch(token, org.id, { customer_email_settings: { payment_method_expiration_reminder: true } });
    expect(reminder.status).toBe(422);
    expect(reminder.body.detail[0]?.loc).toEqual(["body", "customer_email_settings", "payment_method_expiration_reminder"]);
    const off = await polar.organizations.update(org.id, { dispute_settings: { auto_accept_below_amount: null }, customer_email_settings: { ...(await polar.organizations.get(org.id)).customer_email_settings, payment_method_expiration_reminder: false, order_confirmation: false } });
    expect(off.dispute_settings.auto_accept_below_amount).toBeNull();
    expect(off.customer_email_settings).toMatchObject({ payment_method_expiration_reminder: false, order_confirmation: false });
  });
});
