// The portal's Team section for a team customer's owner, in Chromium against the running stack:
// adding a member, refusing an email already there next to its field, making them billing manager,
// removing them; the section is offered only where the organization has the Member model on. Axe, 375 px.
import { describe, expect, it } from "vitest";
import { createCustomerSessionToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { openShop, see } from "./shop.js";

describe("customer portal: a team's members", { timeout: 180_000 }, () => {
  const stack = useBrowserStack();

  it("lets the team's owner manage its members", async () => {
    const shop = await openShop(stack, "Team Tools");
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    // Without the Member model the portal offers no Team section.
    const early = await api("POST", "/v1/customers/", { type: "team", email: "early@example.com" });
    const earlyPage = await stack.newPage();
    await earlyPage.goto(
      `${stack.url}/${shop.org.slug}/portal?customer_session_token=${await createCustomerSessionToken(stack.knex, early.id)}`,
    );
    await earlyPage.getByTestId("signed-in-as").waitFor();
    const navOf = (page: typeof earlyPage) => page.getByRole("navigation", { name: "Customer portal" });
    await navOf(earlyPage).getByRole("link", { name: "Overview" }).waitFor();
    expect(await navOf(earlyPage).getByRole("link", { name: "Team" }).count()).toBe(0);

    await api("PATCH", `/v1/organizations/${shop.org.id}`, { feature_settings: { member_model_enabled: true } });
    const team = await api("POST", "/v1/customers/", { type: "team", email: "owner@example.com", name: "Owner" });
    const token = await createCustomerSessionToken(stack.knex, team.id);
    const page = await stack.newPage({ allow: [{ status: 422, url: "/v1/customer-portal/members/" }] });
    await page.goto(`${stack.url}/${shop.org.slug}/portal?customer_session_token=${token}`);
    await navOf(page).getByRole("link", { name: "Team" }).click();
    await page.getByRole("heading", { name: "Team", exact: true }).waitFor();
    await page.getByRole("textbox", { name: "Email" }).fill("pat@example.com");
    await page.getByRole("button", { name: "Add member" }).click();
    await see(page, "pat@example.com");
    await page.getByRole("combobox", { name: "Role of pat@example.com" }).selectOption("billing_manager");
    const roleOf = async (email: string) =>
      (await stack.knex("customer_members").where({ customer_id: team.id, email }).whereNull("deleted_at").first("role"))?.role;
    await expect.poll(() => roleOf("pat@example.com")).toBe("billing_manager");
    // The owner can't give up their own role: the server's reason is shown on their row.
    await page.getByRole("combobox", { name: "Role of owner@example.com" }).selectOption("member");
    await see(page, "You cannot modify your own role.");
    expect(await roleOf("owner@example.com")).toBe("owner");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "portal-team");

    await page.getByRole("button", { name: "Remove pat@example.com" }).click();
    await expect.poll(() => roleOf("pat@example.com")).toBeUndefined();
    await page.getByTestId("team-member").filter({ hasText: "pat@example.com" }).waitFor({ state: "detached" });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
