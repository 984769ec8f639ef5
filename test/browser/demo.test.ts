// A new user's first walk, as `make run` prints it: open the demo checkout link, pay with the test
// card, then sign in to the customer portal with the code from the Mailpit inbox and find the
// license key that was bought.
import { afterAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../server/seed.js";
import { latestMail } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { card, expectText, fill } from "./shop.js";

describe("make run's demo walk", { timeout: 120_000 }, () => {
  const stack = useBrowserStack();
  const email = `first.buyer+${Date.now()}@example.com`;
  let orgId = "";
  afterAll(async () => {
    if (orgId) await stack.knex("customer_session_codes").where({ organization_id: orgId }).delete();
  });

  it("pays the demo checkout with a test card, then signs in to the portal by email code and finds the license key", async () => {
    const { organization, checkoutLinkUrl } = await seedDemo(stack.knex);
    orgId = organization.id;
    const page = await stack.newPage();
    await page.goto(checkoutLinkUrl);
    await page.getByRole("heading", { name: "Lifetime license" }).waitFor();
    await fill(page, "Email", email);
    await page.getByLabel("Country").selectOption("NO");
    await card(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $99" }).click();
    await page.getByRole("heading", { name: /^Thank you/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId("license-key").waitFor({ timeout: 30_000 });
    const bought = (await page.getByTestId("license-key").textContent()) ?? "";
    expect(bought).toMatch(/^DEMO-/);

    // Another tab, no session: the portal asks for the email and the code.
    const portal = await stack.newPage();
    await portal.goto(`${stack.url}/${organization.slug}/portal`);
    const asked = new Date(Date.now() - 1000);
    await portal.getByLabel("Email").fill(email);
    await portal.getByRole("button", { name: "Email me a code" }).click();
    const mail = await latestMail(email, { subject: /sign-in code/, after: asked });
    await portal.getByLabel("Code").fill(/sign-in code: ([A-Z0-9]{6})$/.exec(mail.subject)![1]);
    await portal.getByRole("button", { name: "Sign in" }).click();
    await expectText(portal, "signed-in-as", email);
    await portal.getByRole("link", { name: "Benefits" }).click();
    await expectText(portal, "license-key", bought);
  });
});
