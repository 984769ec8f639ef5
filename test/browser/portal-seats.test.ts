// The portal's Seats section and the seat claim page, in Chromium against the running stack: a
// team's owner sees the seats of its subscription and of a one-time order, invites by email (the
// server's 422 and SeatAlreadyAssigned next to the field), resends; the invitee opens the emailed
// link (Mailpit), claims and lands in the portal as the holder; the owner revokes. Axe, 375 px.
import { describe, expect, it } from "vitest";
import { createBenefit, createCustomerSessionToken, createOrder, latestMail, linkIn } from "../harness/index.js";
import { createSubscriptionFixture } from "../harness/subscription-fixture.js";
import { useBrowserStack } from "./harness.js";
import { expectText, openShop, see } from "./shop.js";

describe("customer portal: seats", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("lets a team's owner hand out seats, and the invitee claim one", async () => {
    const shop = await openShop(stack, "Seat Works");
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const team = await api("POST", "/v1/customers/", { type: "team", email: "owner@initech.example", name: "Initech" });
    const ownerToken = await createCustomerSessionToken(stack.knex, team.id);
    const nav = (page: Awaited<ReturnType<typeof stack.newPage>>) => page.getByRole("navigation", { name: "Customer portal" });

    // Without seat-based pricing the portal offers no Seats section.
    const early = await stack.newPage();
    await early.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${ownerToken}`);
    await nav(early).getByRole("link", { name: "Overview" }).waitFor();
    expect(await nav(early).getByRole("link", { name: "Seats" }).count()).toBe(0);

    await api("PATCH", `/v1/organizations/${shop.org.id}`, {
      feature_settings: { member_model_enabled: true, seat_based_pricing_enabled: true },
    });
    const sub = await createSubscriptionFixture(stack.knex, {
      startedAt: new Date(),
      organizationId: shop.org.id,
      overrides: { seats: 2 },
    });
    await stack.knex("subscriptions").where({ id: sub.subscription.id }).update({ customer_id: team.id });
    const benefit = await createBenefit(stack.knex, shop.org.id, { description: "Team workspace" });
    await stack.knex("product_benefits").insert({ product_id: sub.productId, benefit_id: benefit.id, order: 0 });
    const pass = await shop.polar.products.create({
      name: "Workshop pass",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 5000, priceCurrency: "usd" }],
    });
    await createOrder(stack.knex, shop.org.id, { customerId: team.id, productId: pass.id }, { seats: 1, subtotal_amount: 5000 });

    const page = await stack.newPage({
      allow: [
        { status: 422, url: "/v1/customer-portal/seats" },
        { status: 400, url: "/v1/customer-portal/seats" },
      ],
    });
    await page.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${ownerToken}`);
    await nav(page).getByRole("link", { name: "Seats" }).click();
    await page.getByRole("heading", { name: "Seats" }).waitFor();
    const subscription = page.getByRole("article", { name: "Pro monthly" });
    const order = page.getByTestId("seat-purchase").filter({ hasText: "Workshop pass" });
    await order.getByText("1 of 1 seats available").waitFor();
    await subscription.getByText("2 of 2 seats available").waitFor();

    // The server's word on a bad email, by the field.
    const email = subscription.getByRole("textbox", { name: "Email" });
    await email.fill("not-an-email");
    await subscription.getByRole("button", { name: "Send invitation" }).click();
    await subscription.locator(".field__error").waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");

    const invited = new Date(Date.now() - 1000);
    await email.fill("ann@initech.example");
    await subscription.getByRole("button", { name: "Send invitation" }).click();
    await subscription.getByText("1 of 2 seats available").waitFor();
    await subscription.getByTestId("seat").filter({ hasText: "ann@initech.example" }).getByText("Invited").waitFor();
    // The same person again: SeatAlreadyAssigned, by the field.
    await email.fill("ANN@initech.example");
    await subscription.getByRole("button", { name: "Send invitation" }).click();
    await see(page, "Seat already assigned to customer ann@initech.example.");
    expect(await email.getAttribute("aria-invalid")).toBe("true");

    await page.getByRole("button", { name: "Resend the invitation to ann@initech.example" }).click();
    await see(page, "Invitation sent again to ann@initech.example.");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "portal-seats");

    // The invitee's email carries the claim link; it opens the claim page, signed out.
    const mail = await latestMail("ann@initech.example", { subject: /is yours to claim/, after: invited, timeoutMs: 30_000 });
    const link = new URL(linkIn(mail, "/portal/claim"));
    expect(link.pathname).toBe(`/${shop.org.slug}/portal/claim`);
    const invitee = await stack.newPage();
    await invitee.goto(`${stack.url}${link.pathname}${link.search}`);
    await invitee.getByRole("heading", { name: "Claim your seat" }).waitFor();
    await expectText(invitee, "claim-product", "Pro monthly");
    await expectText(invitee, "claim-organization", "Seat Works");
    await expectText(invitee, "claim-email", "ann@initech.example");
    await stack.check(invitee, "portal-claim-seat");
    await invitee.getByRole("button", { name: "Claim seat" }).click();
    await expectText(invitee, "signed-in-as", "ann@initech.example");
    expect(new URL(invitee.url()).pathname).toBe(`/${shop.org.slug}/portal`);
    expect(await stack.knex("customer_seats").where({ subscription_id: sub.subscription.id }).first("status")).toEqual({
      status: "claimed",
    });

    // The owner sees it claimed, and revokes it: the seat is free again.
    await page.reload();
    const claimed = page.getByRole("article", { name: "Pro monthly" }).getByTestId("seat").filter({ hasText: "ann@initech.example" });
    await claimed.getByText("Claimed", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Revoke the seat of ann@initech.example" }).click();
    await claimed.waitFor({ state: "detached" });
    await page.getByRole("article", { name: "Pro monthly" }).getByText("2 of 2 seats available").waitFor();
    expect(await stack.knex("customer_seats").where({ subscription_id: sub.subscription.id }).first("status")).toEqual({
      status: "revoked",
    });
    expect(stack.takeProblems(page)).toEqual([]);

    // The used link no longer offers anything.
    const again = await stack.newPage({ allow: [{ status: 404, url: "/v1/customer-seats/claim/" }] });
    await again.goto(`${stack.url}${link.pathname}${link.search}`);
    await again.getByRole("heading", { name: "This invitation cannot be used" }).waitFor();
    await stack.check(again, "portal-claim-seat-used", { mobile: false, screenshot: false });
  });
});
