// A seat-based subscription's seats on the console's subscription page, in Chromium against the
// running stack: assigning one by email (a second time for the same person is refused under the
// field), re-sending its invitation, revoking it after a confirmation; the section passes axe. A
// one-time order's seats on the order page; none for a purchase without seats.
import { describe, expect, it } from "vitest";
import { createOrder, orgWithToken } from "../harness/index.js";
import { createSubscriptionFixture } from "../harness/subscription-fixture.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: a subscription's seats", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("assigns a seat by email, resends its invitation and revokes it", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const patched = await fetch(`${stack.url}/v1/organizations/${org.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ feature_settings: { seat_based_pricing_enabled: true } }),
    });
    expect(patched.status).toBe(200);
    const f = await createSubscriptionFixture(stack.knex, { startedAt: new Date(), organizationId: org.id, overrides: { seats: 3 } });
    const seatOf = (email: string) =>
      stack
        .knex("customer_seats")
        .where({ subscription_id: f.subscription.id, email })
        .first("id", "status", "invitation_token_expires_at");

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/subscriptions/${f.subscription.id}/show`);
    const seats = page.getByRole("region", { name: "Seats" });
    await seats.getByText("3 of 3 seats free").waitFor();
    await seats.getByText("No seat is assigned yet.").waitFor();

    await seats.getByRole("textbox", { name: "Email" }).fill("ann@example.com");
    await seats.getByRole("button", { name: "Assign seat" }).click();
    await seats.getByRole("cell", { name: "ann@example.com" }).waitFor();
    await seats.getByText("2 of 3 seats free").waitFor();
    expect((await seatOf("ann@example.com"))?.status).toBe("pending");

    // the same person again: the server's refusal is said under the field
    stack.allow(page, { status: 400, url: "/v1/customer-seats" });
    await seats.getByRole("textbox", { name: "Email" }).fill("ann@example.com");
    await seats.getByRole("button", { name: "Assign seat" }).click();
    await page.locator("#seat-email-helper-text", { hasText: "SeatAlreadyAssigned" }).waitFor();

    const before = (await seatOf("ann@example.com"))?.invitation_token_expires_at as Date;
    await seats.getByRole("button", { name: "Resend invitation" }).click();
    await page.getByText("Invitation sent again").waitFor();
    await expect
      .poll(async () => ((await seatOf("ann@example.com"))?.invitation_token_expires_at as Date).getTime())
      .toBeGreaterThan(before.getTime());
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-seats");

    await seats.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await seats.getByText("Revoked").waitFor();
    await seats.getByText("3 of 3 seats free").waitFor();
    const revoked = await stack.knex("customer_seats").where({ subscription_id: f.subscription.id }).first("status");
    expect(revoked?.status).toBe("revoked");
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("assigns a seat of a one-time order on the order page", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    await fetch(`${stack.url}/v1/organizations/${org.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ feature_settings: { seat_based_pricing_enabled: true } }),
    });
    const f = await createSubscriptionFixture(stack.knex, { startedAt: new Date(), organizationId: org.id });
    const order = await createOrder(stack.knex, org.id, { customerId: f.customerId, productId: f.productId }, { status: "paid", seats: 2 });
    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/orders/${order.id}/show`);
    const seats = page.getByRole("region", { name: "Seats" });
    await seats.getByText("2 of 2 seats free").waitFor();
    await seats.getByRole("textbox", { name: "Email" }).fill("bo@example.com");
    await seats.getByRole("button", { name: "Assign seat" }).click();
    await seats.getByRole("cell", { name: "bo@example.com" }).waitFor();
    await seats.getByText("1 of 2 seats free").waitFor();
    expect(await stack.knex("customer_seats").where({ order_id: order.id }).pluck("email")).toEqual(["bo@example.com"]);
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("shows no seats section for a subscription without seats", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const f = await createSubscriptionFixture(stack.knex, { startedAt: new Date(), organizationId: org.id });
    const page = await stack.newPage({ allow: [{ status: 403, url: "/v1/customer-seats" }] });
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/subscriptions/${f.subscription.id}/show`);
    await page.getByText("Period start").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("region", { name: "Seats" }).count()).toBe(0);
  });
});
