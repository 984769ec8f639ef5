// Email and password through better-auth's client against the running API: sign-up sends a
// verification email (read from Mailpit), an unverified user cannot sign in, the link signs the
// user in; wrong passwords, taken emails and usernames get better-auth's own messages.
import { describe, expect, it } from "vitest";
import { latestMail, linkIn, mailsTo, PASSWORD, signedOutClient, signUpVerified, uniqueEmail, useTestApi } from "../harness/index.js";

describe("sign-up, verification and sign-in", () => {
  const api = useTestApi();

  it("requires a verified email before signing in, and the emailed link verifies and signs in", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("ada");
    const signUp = await browser.client.signUp.email({ email, password: PASSWORD, name: "Ada" });
    expect(signUp.error).toBeNull();
    // No session before verification.
    expect((await browser.client.getSession()).data).toBeNull();

    const signIn = await browser.client.signIn.email({ email, password: PASSWORD });
    expect(signIn.error?.status).toBe(403);
    expect(signIn.error?.message).toBe("Email not verified");

    const mail = await latestMail(email, { subject: /Verify your email/ });
    const verified = await browser.fetch(linkIn(mail, "/api/auth/verify-email"));
    expect(verified.status).toBeLessThan(400);
    const session = await browser.client.getSession();
    expect(session.data?.user).toMatchObject({ email, emailVerified: true, name: "Ada" });

    // Signed out, the password signs in again.
    await browser.client.signOut();
    expect((await browser.client.getSession()).data).toBeNull();
    const again = await browser.client.signIn.email({ email, password: PASSWORD });
    expect(again.error).toBeNull();
    expect((await browser.client.getSession()).data?.user.email).toBe(email);
  });

  it("lowercases the email and stores the password hashed", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("Grace").replace("grace", "GRACE");
    const user = await signUpVerified(browser, { email, name: "Grace" });
    expect(user.email).toBe(email.toLowerCase());
    const account = await api.knex("accounts").where({ user_id: user.id, provider_id: "credential" }).first("password");
    expect(account.password).not.toContain(PASSWORD);
    expect(account.password.length).toBeGreaterThan(40);
  });

  it("answers a wrong password, a short password and an unknown user with better-auth's messages", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("lin");
    await signUpVerified(browser, { email, name: "Lin" });
    await browser.client.signOut();

    const wrong = await browser.client.signIn.email({ email, password: "not the password" });
    expect(wrong.error).toMatchObject({ status: 401, message: "Invalid email or password" });
    const unknown = await browser.client.signIn.email({ email: uniqueEmail("nobody"), password: PASSWORD });
    expect(unknown.error).toMatchObject({ status: 401, message: "Invalid email or password" });
    const short = await browser.client.signUp.email({ email: uniqueEmail("short"), password: "abc", name: "Short" });
    expect(short.error).toMatchObject({ status: 400, message: "Password too short" });
    const long = await browser.client.signUp.email({ email: uniqueEmail("long"), password: "x".repeat(200), name: "Long" });
    expect(long.error).toMatchObject({ status: 400, message: "Password too long" });
    const badEmail = await browser.client.signUp.email({ email: "not-an-email", password: PASSWORD, name: "Bad" });
    expect(badEmail.error?.status).toBe(400);
  });

  it("does not reveal that an email is taken, and sends its owner no second account", async () => {
    const email = uniqueEmail("taken");
    await signUpVerified(signedOutClient(api.url), { email, name: "First" });
    const before = (await mailsTo(email)).length;
    const second = await signedOutClient(api.url).client.signUp.email({ email, password: "another password 123", name: "Second" });
    // With verification required, a taken email answers like a new one (no enumeration).
    expect(second.error).toBeNull();
    const users = await api.knex("users").where({ email }).count<{ count: number }[]>("* as count");
    expect(users[0].count).toBe(1);
    expect((await mailsTo(email)).length).toBeGreaterThanOrEqual(before);
  });

  it("signs in with a username, and refuses a taken or malformed one", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("user");
    const username = `ada_${Date.now().toString(36)}`;
    await signUpVerified(browser, { email, name: "Ada", username });
    await browser.client.signOut();

    const byName = await browser.client.signIn.username({ username, password: PASSWORD });
    expect(byName.error).toBeNull();
    expect((await browser.client.getSession()).data?.user.email).toBe(email);

    const wrong = await signedOutClient(api.url).client.signIn.username({ username, password: "wrong password" });
    expect(wrong.error).toMatchObject({ status: 401, message: "Invalid username or password" });

    const taken = await signedOutClient(api.url).client.signUp.email({
      email: uniqueEmail("other"),
      password: PASSWORD,
      name: "Other",
      username,
    });
    expect(taken.error).toMatchObject({ status: 400, message: "Username is already taken. Please try another." });
    const tooShort = await signedOutClient(api.url).client.signUp.email({
      email: uniqueEmail("s"),
      password: PASSWORD,
      name: "S",
      username: "ab",
    });
    expect(tooShort.error?.message).toBe("Username is too short");
    const invalid = await signedOutClient(api.url).client.signUp.email({
      email: uniqueEmail("i"),
      password: PASSWORD,
      name: "I",
      username: "no spaces!",
    });
    expect(invalid.error?.message).toBe("Username is invalid");
  });

  it("resets a forgotten password through the emailed link and ends the other sessions", async () => {
    const browser = signedOutClient(api.url);
    const email = uniqueEmail("reset");
    await signUpVerified(browser, { email, name: "Reset" });
    const other = signedOutClient(api.url);
    expect((await other.client.signIn.email({ email, password: PASSWORD })).error).toBeNull();

    const started = new Date(Date.now() - 1000);
    const asked = await signedOutClient(api.url).client.requestPasswordReset({ email, redirectTo: `${api.url}/dashboard/reset-password` });
    expect(asked.error).toBeNull();
    const mail = await latestMail(email, { subject: /Reset your password/, after: started });
    const link = linkIn(mail, "/api/auth/reset-password/");
    // The link checks the token and sends the browser to the page that asks for the new password.
    const opened = await fetch(link, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const page = new URL(opened.headers.get("location")!);
    expect(page.pathname).toBe("/dashboard/reset-password");
    const token = page.searchParams.get("token")!;
    expect(token).toBeTruthy();

    const reset = await signedOutClient(api.url).client.resetPassword({ newPassword: "a brand new password", token });
    expect(reset.error).toBeNull();
    expect((await other.client.getSession({ query: { disableCookieCache: true } })).data).toBeNull();
    expect((await signedOutClient(api.url).client.signIn.email({ email, password: PASSWORD })).error?.status).toBe(401);
    expect((await signedOutClient(api.url).client.signIn.email({ email, password: "a brand new password" })).error).toBeNull();
    // A used token does not work twice.
    const reused = await signedOutClient(api.url).client.resetPassword({ newPassword: "yet another password", token });
    expect(reused.error).toMatchObject({ status: 400, message: "Invalid token" });
  });
});
