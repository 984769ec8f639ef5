// Signing in to the console as a person (better-auth sessions), in Chromium against the running
// stack: sign up, verify the email from its link, create an organization, invite a member, make an
// access token (shown once), switch organization, sign out, reset the password from the email's
// link and sign in with the new one. A 401 sends the console back to the sign-in page.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { latestMail, linkIn } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";

describe("merchant console: people and sessions", { timeout: 240_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("sign up → verify → organization → members → access token → switch → sign out → reset password → sign in", async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await page.goto(`${stack.url}/dashboard/`);
    await page.getByRole("button", { name: "Create an account" }).click({ timeout: 60_000 });
    await page.getByLabel("Your name").fill("Olive Owner");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery staple");
    let started = new Date(Date.now() - 1000);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText(`We sent a verification link to ${email}`).waitFor();
    await stack.check(page, "console-sign-in", { mobile: true });

    // the email's link verifies the address, signs in and lands in the console
    const verify = linkIn(await latestMail(email, { subject: /Verify your email/, after: started }), "/api/auth/verify-email");
    await page.goto(verify);
    await page.getByRole("heading", { name: "Create your organization" }).waitFor();
    await page.getByLabel("Name").fill("Olive's shop");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor();
    await page.getByRole("button", { name: /Organization: Olive's shop/ }).waitFor();
    await page.waitForLoadState("networkidle");

    // members: the owner, then an invitation
    await page.getByRole("menuitem", { name: "Members" }).click();
    await page.getByRole("cell", { name: email }).waitFor();
    await page.getByLabel("Email").fill("teammate@example.com");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByRole("cell", { name: "teammate@example.com" }).waitFor();
    await page.getByRole("cell", { name: "Pending" }).waitFor();
    await stack.check(page, "console-members");

    // an access token, shown once, that the API takes
    await page.getByRole("menuitem", { name: "Access tokens" }).click();
    await page.getByLabel("What it is for").fill("CI");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = await page.getByTestId("secret").textContent();
    expect(token).toMatch(/^polar_oat_/);
    expect((await fetch(`${stack.url}/v1/products/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("cell", { name: "CI", exact: true }).waitFor();
    await stack.check(page, "console-access-tokens");

    // a second organization: the switcher moves the console to it
    await page.evaluate(async () => {
      const res = await fetch("/v1/organizations/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Second shop", slug: `second-${Date.now()}` }),
      });
      // read the body: a reload with the answer half read would cut the request short
      const text = await res.text();
      if (!res.ok) throw new Error(`create organization: ${res.status} ${text}`);
    });
    await page.reload();
    await page.getByRole("button", { name: /Organization: Olive's shop/ }).click();
    await page.getByRole("menuitem", { name: "Second shop" }).click();
    await page.getByRole("button", { name: /Organization: Second shop/ }).waitFor();
    await page.waitForLoadState("networkidle");

    // sign out, then a password reset from the email's link
    await page.getByRole("button", { name: "Profile" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill(email);
    started = new Date(Date.now() - 1000);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("a link to choose a new password is on its way").waitFor();
    const reset = linkIn(await latestMail(email, { subject: /Reset your password/, after: started }), "/api/auth/reset-password");
    await page.goto(reset);
    await page.getByLabel("New password").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await page.getByText("Your password is changed.").waitFor();
    await page.goto(`${stack.url}/dashboard/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /Invalid email or password/ })
      .waitFor();
    await page.getByLabel("Password").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor();
    await page.waitForLoadState("networkidle");
  });
});
