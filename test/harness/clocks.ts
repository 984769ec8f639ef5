// Billing test clocks through the API (our extension, not in the official client: plain JSON with
// the organization's token). A customer attached to a clock lives at its time; advancing it runs
// what falls due and waits until the clock is `ready` again. For example:
//   const clocks = testClocks(api.url, token);
//   await clocks.advance(clockId, "2028-02-01T00:00:00Z");
import { expect } from "vitest";

export interface TestClocks {
  /** `method` on `/v1/test-clocks/<path>`; the answer's status and JSON body ({} for a 204). */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  /** Moves the clock to `to` and waits until what fell due has run (the clock is `ready` again). */
  advance(clockId: string, to: string): Promise<void>;
}

export function testClocks(apiUrl: string, token: string, poll = { timeout: 20_000, interval: 100 }): TestClocks {
  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${apiUrl}/v1/test-clocks/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
  }
  async function advance(clockId: string, to: string) {
    const res = await call("POST", `${clockId}/advance`, { frozen_time: to });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    await expect.poll(async () => (await call("GET", clockId)).json.status, poll).toBe("ready");
  }
  return { call, advance };
}
