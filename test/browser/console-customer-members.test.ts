// A team customer's members on the console's customer page, in Chromium against the running
// stack: adding one, making them billing manager, removing them; the owner stays; the tab passes axe.
import { describe, expect, it } from "vitest";
import { orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: a team customer's members", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("adds a member, changes their role and removes them", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await api("PATCH", `/v1/organizations/${org.id}`, { feature_settings: { member_model_enabled: true } });
    const team = await api("POST", "/v1/customers/", { type: "team", email: "acme@example.com", name: "Acme" });

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/customers/${team.id}/show/members`);
    await page.getByRole("cell", { name: "acme@example.com", exact: true }).waitFor();
    await page.getByRole("textbox", { name: "Email" }).fill("pat@example.com");
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByRole("cell", { name: "pat@example.com", exact: true }).waitFor();

    await page.getByRole("combobox", { name: "Role of pat@example.com" }).click();
    await page.getByRole("option", { name: "Billing manager" }).click();
    const roleOf = async (email: string) =>
      (await stack.knex("customer_members").where({ customer_id: team.id, email }).whereNull("deleted_at").first("role"))?.role;
    await expect.poll(() => roleOf("pat@example.com")).toBe("billing_manager");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-members");

    await page.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => roleOf("pat@example.com")).toBeUndefined();
    await page.getByRole("cell", { name: "pat@example.com", exact: true }).waitFor({ state: "detached" });
    expect(await roleOf("acme@example.com")).toBe("owner");
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
