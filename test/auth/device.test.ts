// The device flow (RFC 8628) for a command-line tool: it asks for codes, a signed-in user approves
// the user code in the browser, the tool's polling gets a session token, and that token works as
// a Bearer on /api/auth and on /v1 (for the organization it makes active).
import { describe, expect, it } from "vitest";
import { DEVICE_CLIENT_ID } from "../../server/auth/instance.js";
import { ownerWithOrganization, signedOutClient, useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

describe("device authorization", () => {
  const api = useTestApi();

  it("signs a command-line tool in with a user code approved by a signed-in user", async () => {
    const cli = signedOutClient(api.url);
    const codes = await cli.client.device.code({ client_id: DEVICE_CLIENT_ID, scope: "openid profile" });
    expect(codes.error).toBeNull();
    const { device_code, user_code, verification_uri, verification_uri_complete, interval, expires_in } = codes.data!;
    expect(device_code).toHaveLength(40);
    expect(user_code.replace(/-/g, "")).toHaveLength(8);
    expect(interval).toBe(5);
    expect(expires_in).toBe(30 * 60);
    expect(verification_uri).toBe(`${api.url}/dashboard/device`);
    expect(verification_uri_complete).toContain(user_code);

    const poll = () =>
      cli.client.device.token({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code, client_id: DEVICE_CLIENT_ID });
    expect((await poll()).error).toMatchObject({ error: "authorization_pending" });

    const owner = await ownerWithOrganization(api.url);
    const seen = await owner.browser.client.device({ query: { user_code } });
    expect(seen.error).toBeNull();
    expect((await owner.browser.client.device.approve({ userCode: user_code })).error).toBeNull();

    // The next poll (after the interval the server asked for) gets the token.
    await sleep(5_100);
    const granted = await poll();
    expect(granted.error).toBeNull();
    const sessionToken = granted.data!.access_token;
    const bearer = { authorization: `Bearer ${sessionToken}` };
    const session = await fetch(`${api.url}/api/auth/get-session`, { headers: bearer });
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(owner.userId);

    // /v1 with that token: once an organization is active, the member's rights there.
    expect((await fetch(`${api.url}/v1/products/`, { headers: bearer })).status).toBe(403);
    const active = await fetch(`${api.url}/api/auth/organization/set-active`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: owner.organizationId }),
    });
    expect(active.status).toBe(200);
    expect((await fetch(`${api.url}/v1/products/`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${api.url}/v1/products/`, { headers: { authorization: "Bearer not-a-session" } })).status).toBe(401);
  }, 30_000);

  it("refuses unknown clients, denied and unknown codes", async () => {
    const cli = signedOutClient(api.url);
    expect((await cli.client.device.code({ client_id: "someone-else" })).error?.status).toBe(400);
    const codes = (await cli.client.device.code({ client_id: DEVICE_CLIENT_ID })).data!;
    const owner = await ownerWithOrganization(api.url);
    await owner.browser.client.device({ query: { user_code: codes.user_code } });
    expect((await owner.browser.client.device.deny({ userCode: codes.user_code })).error).toBeNull();
    const poll = await cli.client.device.token({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: codes.device_code,
      client_id: DEVICE_CLIENT_ID,
    });
    expect(poll.error).toMatchObject({ error: "access_denied" });
    expect((await owner.browser.client.device({ query: { user_code: "NOPE1234" } })).error?.status).toBe(400);
  });
});
