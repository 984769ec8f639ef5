// The in-process cache of verified organization tokens: a revocation through this process is
// refused at once; one made elsewhere (plain SQL here) within TOKEN_CACHE_TTL_MS; a cached token
// never outlives its expires_at.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mintOrganizationToken, revokeOrganizationToken, TOKEN_CACHE_TTL_MS } from "../../server/kit/auth.js";
import { createOrganization, orgWithToken } from "../fixtures/factories.js";
import { useTestApi } from "../helpers/api.js";

const api = useTestApi();

async function status(token: string): Promise<number> {
  const res = await fetch(`${api.url}/v1/products/`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("organization token cache", () => {
  it("refuses a token revoked through revokeOrganizationToken on the next request", async () => {
    const { org, token } = await orgWithToken(api.knex);
    expect(await status(token)).toBe(200); // now cached
    const { id } = await api.knex("organization_access_tokens").where({ organization_id: org.id }).first("id");
    await revokeOrganizationToken(api.knex, id);
    expect(await status(token)).toBe(401);
    expect((await api.knex("organization_access_tokens").where({ id }).first("revoked_at")).revoked_at).not.toBeNull();
  });

  it("refuses a token revoked elsewhere once the cache lifetime has passed, not before", async () => {
    expect(TOKEN_CACHE_TTL_MS).toBeGreaterThan(0);
    const { org, token } = await orgWithToken(api.knex);
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await status(token)).toBe(200);
    await api.knex("organization_access_tokens").where({ organization_id: org.id }).update({ revoked_at: api.knex.fn.now() });
    vi.setSystemTime(Date.now() + TOKEN_CACHE_TTL_MS - 100);
    expect(await status(token)).toBe(200); // the documented bound: still trusted inside the lifetime
    vi.setSystemTime(Date.now() + 200);
    expect(await status(token)).toBe(401);
  });

  it("never serves a cached token past its own expiry", async () => {
    const org = await createOrganization(api.knex);
    const token = await mintOrganizationToken(api.knex, org.id, { expiresAt: new Date(Date.now() + 2_000) });
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await status(token)).toBe(200);
    // The database says it has expired; the cache must not have kept it past the expiry it read.
    await api.knex("organization_access_tokens").where({ organization_id: org.id }).update({ expires_at: new Date(Date.now() - 1_000) });
    vi.setSystemTime(Date.now() + 2_500); // past expires_at, inside the cache lifetime
    expect(await status(token)).toBe(401);
  });
});
