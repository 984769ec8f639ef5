// A person's own account through better-auth: two-factor authentication with TOTP and backup codes
// (enrol, verify, sign in with a code, disable), an email change confirmed from the new address,
// and the invitation preview a signed-out invitee sees.
import { describe, expect, it } from "vitest";
import {
  latestMail,
  linkIn,
  ownerWithOrganization,
  PASSWORD,
  signedOutClient,
  signUpVerified,
  totpCode,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

describe("a person's account", () => {
  const api = useTestApi();

  it("enrols TOTP, then asks for a code or a backup code after the password, until disabled", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("tfa");
    await signUpVerified(browser, { email, name: "Tess" });

    const wrong = await browser.client.twoFactor.enable({ password: "not my password" });
    expect(wrong.error).toMatchObject({ status: 400, message: "Invalid password" });
    const enabled = await browser.client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.error).toBeNull();
    const data = enabled.data;
    if (data?.method !== "totp") throw new Error(`no TOTP enrolment: ${JSON.stringify(enabled)}`);
    const { totpURI, backupCodes } = data;
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Borealis:/);
    expect(backupCodes).toHaveLength(10);
    // not on until a code from the app proves it was set up
    expect((await browser.client.getSession({ query: { disableCookieCache: true } })).data?.user).toMatchObject({
      twoFactorEnabled: false,
    });
    expect((await browser.client.twoFactor.verifyTotp({ code: "000000" })).error).toMatchObject({ message: "Invalid code" });
    expect((await browser.client.twoFactor.verifyTotp({ code: await totpCode(totpURI) })).error).toBeNull();
    expect((await browser.client.getSession({ query: { disableCookieCache: true } })).data?.user).toMatchObject({ twoFactorEnabled: true });
    await browser.client.signOut();

    // the password alone opens no session
    const next = signedOutClient(api.url);
    const first = await next.client.signIn.email({ email, password: PASSWORD });
    expect(first.data).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect((await next.client.getSession()).data).toBeNull();
    expect((await next.client.twoFactor.verifyTotp({ code: "123456" })).error).toMatchObject({ message: "Invalid code" });
    expect((await next.client.twoFactor.verifyTotp({ code: await totpCode(totpURI) })).error).toBeNull();
    expect((await next.client.getSession()).data?.user.email).toBe(email);
    await next.client.signOut();

    // a backup code works once
    const third = signedOutClient(api.url);
    await third.client.signIn.email({ email, password: PASSWORD });
    expect((await third.client.twoFactor.verifyBackupCode({ code: backupCodes[0] })).error).toBeNull();
    expect((await third.client.getSession()).data?.user.email).toBe(email);
    await third.client.signOut();
    const fourth = signedOutClient(api.url);
    await fourth.client.signIn.email({ email, password: PASSWORD });
    expect((await fourth.client.twoFactor.verifyBackupCode({ code: backupCodes[0] })).error).toMatchObject({
      message: "Invalid backup code",
    });
    expect((await fourth.client.twoFactor.verifyBackupCode({ code: backupCodes[1] })).error).toBeNull();

    // disabling takes the password; then the password alone signs in again
    expect((await fourth.client.twoFactor.disable({ password: "nope nope nope" })).error).toMatchObject({ message: "Invalid password" });
    expect((await fourth.client.twoFactor.disable({ password: PASSWORD })).error).toBeNull();
    const fifth = signedOutClient(api.url);
    const plain = await fifth.client.signIn.email({ email, password: PASSWORD });
    expect(plain.data).not.toHaveProperty("twoFactorRedirect");
    expect((await fifth.client.getSession()).data?.user.email).toBe(email);
  });

  it("changes the email once the link sent to the new address is opened", async () => {
    const browser = signedOutClient(api.url);
    await signUpVerified(browser, { email: uniqueEmail("old"), name: "Eve" });
    const newEmail = uniqueEmail("new");
    const started = new Date(Date.now() - 1000);
    const asked = await browser.client.changeEmail({ newEmail, callbackURL: `${api.url}/dashboard/account` });
    expect(asked.error).toBeNull();
    const link = linkIn(await latestMail(newEmail, { subject: /Verify your email/, after: started }), "/api/auth/verify-email");
    expect((await browser.fetch(link)).status).toBeLessThan(400);
    const session = await browser.client.getSession({ query: { disableCookieCache: true } });
    expect(session.data?.user).toMatchObject({ email: newEmail, emailVerified: true });
  });

  it("shows an invitation's organization and email to whoever holds its link, and nothing else", async () => {
    const { browser: owner, organizationId } = await ownerWithOrganization(api.url, "Ivy");
    const email = uniqueEmail("invitee");
    const invited = await owner.client.organization.inviteMember({ email, role: "member", organizationId });
    const id = invited.data?.id ?? "";
    const preview = (query: string) => fetch(`${api.url}/api/auth/invitation/preview?${query}`);

    const res = await preview(`id=${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email, status: "pending", organizationName: "Ivy's company", hasAccount: false });
    for (const query of ["id=00000000-0000-4000-8000-000000000000", "id=not-a-uuid", "id="]) {
      const missing = await preview(query);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ message: "Invitation not found" });
    }
    expect((await preview("")).status).toBe(400);

    const invitee = signedOutClient(api.url);
    await signUpVerified(invitee, { email, name: "Ian" });
    expect(await (await preview(`id=${id}`)).json()).toMatchObject({ hasAccount: true });
    expect((await invitee.client.organization.acceptInvitation({ invitationId: id })).error).toBeNull();
    expect(await (await preview(`id=${id}`)).json()).toMatchObject({ status: "accepted" });
  });
});
