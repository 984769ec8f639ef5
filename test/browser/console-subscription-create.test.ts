// The console's "give a free plan" form, in Chromium against the running stack: a paid plan is
// refused next to the product field with the server's reason, a free one starts an active
// subscription shown on its page; the form passes axe.
import { describe, expect, it } from "vitest";
import { createCustomer, orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { pickOption, signIn } from "./console-helpers.js";

describe("merchant console: a subscription without a checkout", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();

  it("refuses a paid plan at its field and starts a free one", async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const customer = await createCustomer(stack.knex, org.id, { email: "comped@example.com" });
    await polar.products.create({
      name: "Team plan",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 4900, priceCurrency: "usd" }],
    });
    await polar.products.create({ name: "Community plan", recurringInterval: "month", prices: [{ amountType: "free" }] });

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/subscriptions`);
    await page.getByRole("link", { name: "New subscription" }).click();
    await pickOption(page, "Customer", "comped@example.com");
    await pickOption(page, "Free plan", "Team plan");
    stack.allow(page, { status: 422, url: "/v1/subscriptions/" });
    await page.getByRole("button", { name: "Save" }).click();
    // next to the product field (the text its input is described by), not only in the toast
    const described = async () => {
      const id = await page.getByRole("combobox", { name: "Free plan" }).getAttribute("aria-describedby");
      return id ? page.locator(`[id="${id}"]`).innerText() : "";
    };
    await expect.poll(described).toBe("Product is not free. The customer should go through a checkout to create a paid subscription.");
    expect(await stack.knex("subscriptions").where({ customer_id: customer.id })).toHaveLength(0);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-subscription-create");

    await pickOption(page, "Free plan", "Community plan");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/dashboard\/subscriptions\/[0-9a-f-]+\/show$/);
    const [sub] = await stack.knex("subscriptions").where({ customer_id: customer.id });
    expect(sub).toMatchObject({ status: "active", amount: 0 });
    await page.getByText("Community plan").first().waitFor();
    // the saved notification fades out before axe looks (a fading text fails its contrast)
    await page.locator(".MuiSnackbarContent-message").waitFor({ state: "hidden", timeout: 15_000 });
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-subscription-created", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
