// better-auth's rate limiter, on for this file's two API processes (AUTH_RATE_LIMIT=1), counting
// in PostgreSQL: sign-in allows 3 attempts per 10 s per client address across both processes,
// verification emails 3 a minute, and the next answers 429 with X-Retry-After.
import { beforeAll, describe, expect, it } from "vitest";
import { signedOutClient, uniqueEmail, useTestApi } from "../harness/index.js";

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
    expect(Number(limited.headers.get("x-retry-after"))).toBeGreaterThan(0);
    expect((await first.knex("rate_limits").where("key", "like", "%sign-in%")).length).toBeGreaterThan(0);
    // Other paths have their own counters.
    expect((await fetch(`${first.url}/api/auth/get-session`)).status).toBe(200);
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
