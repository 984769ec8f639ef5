// The console's event types screen in Chromium against the running stack: the organization's
// user event names with their statistics, a label renamed in its dialog (and a blank one refused by
// the server on its field), passing axe at 1280 and 375 px.
import { describe, expect, it } from "vitest";
import { createEvent, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: event types", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("lists the user event names and renames one's label", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    await createEvent(stack.knex, org.id, { name: "api_call", timestamp: new Date("2025-03-01T10:00:00Z") });
    await createEvent(stack.knex, org.id, { name: "api_call", timestamp: new Date("2025-03-02T10:00:00Z") });
    await createEvent(stack.knex, org.id, { name: "signup", timestamp: new Date("2025-02-01T10:00:00Z") });
    await createEvent(stack.knex, org.id, { name: "benefit.granted", source: "system", timestamp: new Date("2025-03-03T10:00:00Z") });
    const signup = await stack.knex("event_types").where({ organization_id: org.id, name: "signup" }).first();

    const page = await stack.newPage({ allow: [{ status: 422, url: `/v1/event-types/${signup.id}` }] });
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/event-types`);
    const rows = page.locator("tbody tr");
    await rows.first().waitFor();
    // newest last seen first; the platform's own names are not listed
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent))).toEqual(["api_call", "signup"]);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-event-types");

    const row = rows.filter({ hasText: "signup" });
    await row.getByRole("button", { name: "Rename" }).click();
    const dialog = page.getByRole("dialog", { name: "Label of signup" });
    const label = dialog.getByRole("textbox", { name: "Label", exact: true });
    await label.fill("   ");
    await dialog.getByRole("button", { name: "Save label" }).click();
    await expect.poll(async () => label.getAttribute("aria-invalid")).toBe("true");
    await stack.check(page, "console-event-types-422", { screenshot: false, mobile: false });

    await label.fill("Sign-ups");
    await dialog.getByRole("textbox", { name: "Label from metadata (optional)" }).fill("metadata.plan");
    await dialog.getByRole("button", { name: "Save label" }).click();
    await page.getByText("Label saved").waitFor();
    await row.getByText("Sign-ups").waitFor();
    expect(await stack.knex("event_types").where({ id: signup.id }).first()).toMatchObject({
      label: "Sign-ups",
      label_property_selector: "metadata.plan",
    });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
