// The captcha plugin, on because CAPTCHA_SECRET_KEY is set for this file's API: sign-up, sign-in
// and password reset need an `x-captcha-response` the provider accepts. The provider's siteverify
// is a local stand-in (CAPTCHA_VERIFY_URL) that accepts one response and checks the secret.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, signedOutClient, uniqueEmail, useTestApi } from "../harness/index.js";

const SECRET = "captcha-secret-for-tests";
const GOOD = "a-human-solved-it";

let siteverify: Server;
let verifyUrl: string;
const verified: { secret: string; response: string }[] = [];

beforeAll(async () => {
  siteverify = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const { secret, response } = JSON.parse(body) as { secret: string; response: string };
      verified.push({ secret, response });
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify(
          secret === SECRET && response === GOOD ? { success: true } : { success: false, "error-codes": ["invalid-input-response"] },
        ),
      );
    });
  });
  await new Promise<void>((r) => siteverify.listen(0, "127.0.0.1", () => r()));
  const address = siteverify.address();
  const port = typeof address === "object" && address ? address.port : 0;
  verifyUrl = `http://127.0.0.1:${port}/siteverify`;
});

afterAll(() => {
  siteverify?.close();
});

// Started after the stand-in above listens (hooks run in order), closed before it.
const api = useTestApi({
  env: () => ({ CAPTCHA_SECRET_KEY: SECRET, CAPTCHA_PROVIDER: "cloudflare-turnstile", CAPTCHA_VERIFY_URL: verifyUrl }),
});

describe("captcha", () => {
  it("refuses sign-up without a captcha response, and with a wrong one, with better-auth's messages", async () => {
    const missing = await signedOutClient(api.url).client.signUp.email({ email: uniqueEmail("bot"), password: PASSWORD, name: "Bot" });
    expect(missing.error).toMatchObject({ status: 400, message: "Missing CAPTCHA response" });
    const wrong = await signedOutClient(api.url, { extraHeaders: { "x-captcha-response": "a-bot-guessed" } }).client.signUp.email({
      email: uniqueEmail("bot"),
      password: PASSWORD,
      name: "Bot",
    });
    expect(wrong.error).toMatchObject({ status: 403, message: "Captcha verification failed" });
    expect(verified.at(-1)).toEqual({ secret: SECRET, response: "a-bot-guessed" });
  });

  it("lets a solved captcha through to sign-up, sign-in and password reset", async () => {
    const human = signedOutClient(api.url, { extraHeaders: { "x-captcha-response": GOOD } });
    const email = uniqueEmail("human");
    expect((await human.client.signUp.email({ email, password: PASSWORD, name: "Human" })).error).toBeNull();
    // Past the captcha, sign-in still wants the verified email.
    expect((await human.client.signIn.email({ email, password: PASSWORD })).error?.message).toBe("Email not verified");
    expect((await human.client.requestPasswordReset({ email, redirectTo: `${api.url}/dashboard/reset-password` })).error).toBeNull();
    const noCaptcha = await signedOutClient(api.url).client.signIn.email({ email, password: PASSWORD });
    expect(noCaptcha.error?.message).toBe("Missing CAPTCHA response");
  });
});
