// The console's saved metric dashboards in Chromium against the running stack: a dashboard made
// through the API shows its metrics' charts, a new one is saved from the form (a 422 from the
// server lands on its field), and the one shown is deleted; axe at 1280 and 375 px.
import { describe, expect, it } from "vitest";
import { orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: metric dashboards", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("shows a saved dashboard's charts, saves a new one and deletes it", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const res = await fetch(`${stack.url}/v1/metrics/dashboards`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Revenue", metrics: ["revenue", "checkouts_conversion"] }),
    });
    expect(res.status).toBe(201);

    const page = await stack.newPage({ allow: [{ status: 422, url: "/v1/metrics/dashboards" }] });
    await signIn(stack, page, token);
    await page.getByRole("menuitem", { name: "Dashboards" }).click();
    await page.getByTestId("dashboard-ready").waitFor();
    await page.getByRole("heading", { name: "Checkouts Conversion Rate" }).waitFor();
    await page.getByRole("heading", { name: "Revenue", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-dashboards");

    // a blank name passes the form's check but not the server's: its 422 lands on the field
    const name = page.getByRole("textbox", { name: "Name" });
    await name.fill("   ");
    await page.getByRole("button", { name: "Save dashboard" }).click();
    await expect.poll(async () => name.getAttribute("aria-invalid")).toBe("true");

    await name.fill("Growth");
    await page.getByRole("combobox", { name: "Metrics" }).click();
    await page.getByRole("option", { name: "Active Subscriptions" }).click();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Save dashboard" }).click();
    await page.getByText("Dashboard saved").waitFor();
    await page.getByRole("heading", { name: "Active Subscriptions" }).waitFor();
    expect(await stack.knex("metric_dashboards").where({ organization_id: org.id }).orderBy("created_at").pluck("name")).toEqual([
      "Revenue",
      "Growth",
    ]);

    await page.getByRole("button", { name: "Delete Growth" }).click();
    await page.getByText("Dashboard deleted").waitFor();
    await expect.poll(() => stack.knex("metric_dashboards").where({ organization_id: org.id }).pluck("name")).toEqual(["Revenue"]);
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
