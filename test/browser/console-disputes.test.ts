// The console's disputes, in Chromium against the running stack: a purchase with the sandbox's
// dispute card opens one; the Sales menu lists it, its page concedes it (Accept, confirmed, lost
// at the processor), and the order's page shows it. Each screen passes axe.
import { describe, expect, it } from "vitest";
import { orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { disputedPurchase, signIn } from "./console-helpers.js";

describe("merchant console: disputes", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("lists a dispute, accepts it from its page, and shows it on the order", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const order = await disputedPurchase(stack, org.id, token);

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.getByRole("menuitem", { name: "Disputes" }).click();
    const row = page.getByRole("row").filter({ hasText: "disputer@example.com" });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/\$25\.00\s+Needs response\s+fraudulent/);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-disputes");

    await row.click();
    await page.getByRole("button", { name: "Accept" }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-dispute");
    await page.getByRole("button", { name: "Accept" }).click();
    await page.getByRole("dialog").getByText("$25.00 goes back to the card holder").waitFor();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Dispute accepted").waitFor();
    // the notification fades out before axe looks (a fading text fails its contrast)
    await page.getByText("Dispute accepted").waitFor({ state: "hidden" });
    await page.getByText("Lost", { exact: true }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Accept" }).count()).toBe(0);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-dispute-lost", { screenshot: false });
    expect((await stack.knex("disputes").where({ order_id: order.id }).first()).status).toBe("lost");

    await page.getByRole("link", { name: order.id }).click();
    const disputes = page.getByRole("table").filter({ hasText: "Respond by" });
    await disputes.getByText("Lost", { exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-order-disputes", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
