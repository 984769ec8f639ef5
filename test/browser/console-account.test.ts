// A person's account and organizations in the console, in Chromium against the running stack: the
// account page (profile, password, signed-in devices, email change by link, two-factor with an
// authenticator code and backup codes, then a sign-in that asks for the code); a second
// organization made from the app bar and switched between; and an invitee with no account who
// signs up from the invitation's link and lands in its organization.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { latestMail, linkIn, ownerWithOrganization, PASSWORD, totpCode, uniqueEmail } from "../harness/index.js";
import { useBrowserStack, type BrowserStack } from "./harness.js";

async function signInWithPassword(stack: BrowserStack, page: Page, email: string): Promise<void> {
  await page.goto(`${stack.url}/dashboard/login`);
  await page.getByLabel("Email").fill(email, { timeout: 60_000 });
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function home(page: Page): Promise<void> {
  // a reload of the console can be slow on a busy machine
  await page.getByRole("heading", { name: "Last 30 days" }).waitFor({ timeout: 60_000 });
  await page.waitForLoadState("networkidle");
}

/** The app bar's user menu: react-admin hides the bar while the page is scrolled down, so from the top. */
async function openUserMenu(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("button", { name: "Profile", exact: true }).click();
}

describe("merchant console: my account and organizations", { timeout: 300_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("profile, password, devices, email change and two-factor authentication", async () => {
    const owner = await ownerWithOrganization(stack.url, "Ada");
    const email = (await owner.browser.client.getSession()).data?.user.email ?? "";
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await signInWithPassword(stack, page, email);
    await home(page);

    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "My account" }).click();
    await page.getByRole("heading", { name: "My account", level: 1 }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Your profile is saved.").waitFor();

    // the sign-up's own session (another device) is listed and can be signed out
    const devices = page.getByRole("table", { name: "Signed-in devices" });
    await devices.getByText("This device").waitFor();
    expect(await devices.getByRole("row").count()).toBe(3);
    await devices.getByRole("button", { name: /^Sign out / }).click();
    await page.getByText("That device is signed out.").waitFor();
    await expect.poll(() => devices.getByRole("row").count()).toBe(2);
    expect((await owner.browser.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();

    // a wrong current password is said next to its field
    stack.allow(page, { status: 400, url: "/api/auth/change-password" });
    await page.getByLabel("Current password").fill("not the password");
    await page.getByLabel("New password").fill("an even better passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator("#account-current-password-helper-text", { hasText: "Invalid password" }).waitFor();
    await page.getByLabel("New password").fill("");
    await page.getByLabel("Current password").fill("");

    // two-factor: the password, the key into an app, a code from it, the backup codes
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Turn on" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7 ]{20,}$/);
    const qr = page.getByRole("img", { name: /QR code of your two-factor key/ });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    stack.allow(page, { status: 401, url: "/api/auth/two-factor/verify-totp" });
    await page.getByLabel("Code from the app").fill("000000");
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.locator("#two-factor-verify-helper-text", { hasText: "Invalid code" }).waitFor();
    await stack.check(page, "console-account-two-factor-enrol");
    await page.getByLabel("Code from the app").fill(await totpCode(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByRole("list", { name: "Backup codes" }).waitFor();
    const backupCodes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
    expect(backupCodes).toHaveLength(10);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await page.getByText("Signing in asks for a code from your authenticator app").waitFor();
    await stack.check(page, "console-account");

    // signing in again: the password, then the code (a wrong one is refused)
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await signInWithPassword(stack, page, email);
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    await stack.check(page, "console-sign-in-two-factor");
    await page.getByLabel("Authentication code").fill("123456");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid code" }).waitFor();
    await page.getByLabel("Authentication code").fill(await totpCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await home(page);

    // and with a backup code in place of the app
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await signInWithPassword(stack, page, email);
    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backupCodes[0]);
    await page.getByRole("button", { name: "Verify" }).click();
    await home(page);

    // a new email, changed once the link sent to it is opened
    await page.goto(`${stack.url}/dashboard/account`);
    const newEmail = uniqueEmail("ada-new");
    const started = new Date(Date.now() - 1000);
    await page.getByLabel("New email").fill(newEmail);
    await page.getByRole("button", { name: "Change email" }).click();
    await page.getByText(`We sent a link to ${newEmail}`).waitFor();
    await page.goto(linkIn(await latestMail(newEmail, { subject: /Verify your email/, after: started }), "/api/auth/verify-email"));
    await page.getByText(`You sign in with ${newEmail}.`).waitFor();

    // turning it off takes the password; then the password alone signs in
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByText("Two-factor authentication is off.").waitFor();
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await signInWithPassword(stack, page, newEmail);
    await home(page);
  });

  it("a second organization from the app bar, and an invitee who signs up from the invitation", async () => {
    const owner = await ownerWithOrganization(stack.url, "Bea");
    const email = (await owner.browser.client.getSession()).data?.user.email ?? "";
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await signInWithPassword(stack, page, email);
    await home(page);

    await page.getByRole("button", { name: /Organization: Bea's company/ }).click();
    await page.getByRole("menuitem", { name: "New organization" }).click();
    await page.getByRole("heading", { name: "Create another organization" }).waitFor();
    await stack.check(page, "console-organization-new");
    await page.getByLabel("Name").fill("Bea's second shop");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("button", { name: /Organization: Bea's second shop/ }).waitFor({ timeout: 60_000 });
    await home(page);
    await page.getByRole("button", { name: /Organization: Bea's second shop/ }).click();
    await page.getByRole("menuitem", { name: "Bea's company" }).click();
    await page.getByRole("button", { name: /Organization: Bea's company/ }).waitFor({ timeout: 60_000 });
    await home(page);

    // an invitation to someone with no account: sign up from its link, verify, join
    const invitee = uniqueEmail("invitee");
    let started = new Date(Date.now() - 1000);
    const invited = await owner.browser.client.organization.inviteMember({
      email: invitee,
      role: "member",
      organizationId: owner.organizationId,
    });
    expect(invited.error).toBeNull();
    const link = linkIn(await latestMail(invitee, { subject: /invited you to/, after: started }), "/accept-invitation/");
    const guest = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await guest.goto(link);
    await guest.getByRole("heading", { name: "Join Bea's company" }).waitFor({ timeout: 60_000 });
    expect(await guest.getByLabel("Email").inputValue()).toBe(invitee);
    await stack.check(guest, "console-invitation-sign-up");
    await guest.getByLabel("Your name").fill("Ines Invitee");
    await guest.getByLabel("Password").fill(PASSWORD);
    started = new Date(Date.now() - 1000);
    await guest.getByRole("button", { name: "Create account and join" }).click();
    await guest.getByText(`We sent a link to ${invitee}. Open it to confirm your email and join Bea's company.`).waitFor();
    await guest.goto(linkIn(await latestMail(invitee, { subject: /Verify your email/, after: started }), "/api/auth/verify-email"));
    await guest.getByText("You joined Bea's company.").waitFor({ timeout: 60_000 });
    await stack.check(guest, "console-invitation-joined");
    await guest.getByRole("button", { name: "Open the console" }).click();
    await guest.getByRole("button", { name: /Organization: Bea's company/ }).waitFor({ timeout: 60_000 });
    await home(guest);

    // the owner sees the new member
    await page.getByRole("menuitem", { name: "Members" }).click();
    await page.getByRole("table", { name: "Members" }).getByRole("cell", { name: invitee }).waitFor();
  });
});
