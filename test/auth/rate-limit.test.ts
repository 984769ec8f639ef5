// better-auth's rate limiter, on for this file's API processes (AUTH_RATE_LIMIT=1) and counted in
// PostgreSQL: sign-in 3 attempts per 10 s per client address across processes, verification
// emails 3 a minute, then 429 with Retry-After; the OAuth2 endpoints too. The client is the TCP
// peer (each test calls from a loopback address of its own), or a trusted proxy's forwarded one.
import { beforeAll, describe, expect, it } from "vitest";
import { fetchFrom, PASSWORD, type PeerAnswer, signedOutClient, signUpVerified, uniqueEmail, useTestApi } from "../harness/index.js";

const limited = { env: { AUTH_RATE_LIMIT: "1" }, validateResponses: false };
const first = useTestApi(limited);
let second: { url: string };

beforeAll(async () => {
  second = await first.startAnother(limited);
});

async function signIn(api: { url: string }, email: string): Promise<Response> {
  return fetch(`${api.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(api.url).origin },
    body: JSON.stringify({ email, password: "not the right password" }),
  });
}

/** Signs in from `local` with `password` (the right one unless told), sending `headers` too. */
function signInFrom(
  api: { url: string },
  local: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<PeerAnswer> {
  const sent = { "content-type": "application/json", origin: new URL(api.url).origin, ...headers };
  return fetchFrom(local, `${api.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: sent,
    body: JSON.stringify({ email, password }),
  });
}

/** Three wrong passwords from `local`, then the right one: refused (the client's bucket is full). */
async function lockOut(api: { url: string }, local: string, email: string, headers: Record<string, string> = {}): Promise<void> {
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await signInFrom(api, local, email, "not the right password", headers)).status);
  statuses.push((await signInFrom(api, local, email, PASSWORD, headers)).status);
  expect(statuses).toEqual([401, 401, 401, 429]);
}

/** A verified user (signed up from 127.0.0.1). */
async function verifiedUser(api: { url: string }): Promise<string> {
  const email = uniqueEmail("limited");
  await signUpVerified(signedOutClient(api.url), { email, name: "Limited" });
  return email;
}

const bucketKeys = async (path: string) => (await first.knex("rate_limits").where("key", "like", `%|${path}`).pluck("key")).sort();

describe("rate limiting", () => {
  it("counts sign-in attempts across API processes and answers the fourth with 429", async () => {
    await first.knex("rate_limits").del();
    const email = uniqueEmail("guess");
    const statuses = [];
    for (const api of [first, second, first]) statuses.push((await signIn(api, email)).status);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await signIn(second, email);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: "Too many requests. Please try again later." });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(limited.headers.get("x-retry-after")).toBe(String(retryAfter));
    expect((await first.knex("rate_limits").where("key", "like", "%sign-in%")).length).toBeGreaterThan(0);
    // Other paths have their own counters.
    expect((await fetch(`${first.url}/api/auth/get-session`)).status).toBe(200);
  });

  it("counts sign-in per client: one client's failures do not block another's sign-in, and a header the client sends picks no bucket", async () => {
    await first.knex("rate_limits").del();
    const email = await verifiedUser(first);
    await lockOut(first, "127.0.0.2", email);
    // No proxy is trusted: a forwarded address, or our own header, from the client changes nothing.
    const forgeries: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.50" },
      { "x-real-ip": "203.0.113.51" },
      { "x-borealis-client-ip": "203.0.113.52" },
    ];
    for (const forged of forgeries) {
      expect((await signInFrom(first, "127.0.0.2", email, PASSWORD, forged)).status, JSON.stringify(forged)).toBe(429);
    }
    expect((await signInFrom(first, "127.0.0.3", email, PASSWORD)).status).toBe(200);
    expect(await bucketKeys("/sign-in/email")).toEqual(["127.0.0.2|/sign-in/email", "127.0.0.3|/sign-in/email"]);
  });

  it("counts sign-in per forwarded client behind a trusted proxy (TRUST_PROXY, or AUTH_IP_HEADER's last address)", async () => {
    await first.knex("rate_limits").del();
    const email = await verifiedUser(first);
    const proxied = await first.startAnother({ env: { AUTH_RATE_LIMIT: "1", TRUST_PROXY: "loopback" }, validateResponses: false });
    await lockOut(proxied, "127.0.0.1", email, { "x-forwarded-for": "203.0.113.1" });
    expect((await signInFrom(proxied, "127.0.0.1", email, PASSWORD, { "x-forwarded-for": "203.0.113.2" })).status).toBe(200);

    // The proxy appends the address it saw: an address the client put first is not believed.
    const named = await first.startAnother({ env: { AUTH_RATE_LIMIT: "1", AUTH_IP_HEADER: "X-Forwarded-For" }, validateResponses: false });
    await lockOut(named, "127.0.0.1", email, { "x-forwarded-for": "198.51.100.1" });
    expect((await signInFrom(named, "127.0.0.1", email, PASSWORD, { "x-forwarded-for": "198.51.100.9, 198.51.100.1" })).status).toBe(429);
    expect((await signInFrom(named, "127.0.0.1", email, PASSWORD, { "x-forwarded-for": "198.51.100.1, 198.51.100.2" })).status).toBe(200);
    expect(await bucketKeys("/sign-in/email")).toEqual([
      "198.51.100.1|/sign-in/email",
      "198.51.100.2|/sign-in/email",
      "203.0.113.1|/sign-in/email",
      "203.0.113.2|/sign-in/email",
    ]);
  });

  it("counts the OAuth2 endpoints handed to better-auth (token, client registration) per client too, and answers 429 with Retry-After", async () => {
    await first.knex("rate_limits").del();
    const token = (local: string) =>
      fetchFrom(local, `${first.url}/v1/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=refresh_token&refresh_token=polar_rt_unknown&client_id=unknown&client_secret=wrong",
      });
    const register = (local: string) =>
      fetchFrom(local, `${first.url}/v1/oauth2/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["https://example.com/cb"] }),
      });
    // The provider's limits: 20 token requests a minute, 5 registrations.
    const tokens = [];
    for (let i = 0; i < 21; i++) tokens.push((await token("127.0.0.4")).status);
    expect(tokens).toEqual([...Array(20).fill(400), 429]);
    const refused = await token("127.0.0.4");
    expect(JSON.parse(refused.body)).toEqual({ error: "TooManyRequests", detail: expect.stringMatching(/retry in \d+ s/) });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(50);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect((await token("127.0.0.6")).status).toBe(400);

    const registrations = [];
    for (let i = 0; i < 6; i++) registrations.push((await register("127.0.0.5")).status);
    expect(registrations).toEqual([401, 401, 401, 401, 401, 429]);
    expect(Number((await register("127.0.0.5")).headers["retry-after"])).toBeGreaterThan(50);
    expect(await bucketKeys("/oauth2/token")).toEqual(["127.0.0.4|/oauth2/token", "127.0.0.6|/oauth2/token"]);
    expect(await bucketKeys("/oauth2/register")).toEqual(["127.0.0.5|/oauth2/register"]);
  });

  it("limits verification emails", async () => {
    await first.knex("rate_limits").del();
    const browser = signedOutClient(first.url);
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const res = await browser.client.sendVerificationEmail({ email: uniqueEmail("resend") });
      codes.push(res.error?.status ?? 200);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});
