// Organization token verification with its cache across API processes: each process caches a
// token it verified, and every change that decides whether it works (revoked through the API or in
// plain SQL, new scopes, a new expiry) reaches every process through PostgreSQL's NOTIFY before the
// next request. With the notifications down nothing is cached; a cached token never outlives its
// own expires_at.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { hashToken } from "../../server/kit/auth.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { type ApiHandle, createOrganization, orgWithToken, useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
/** A second API process's worth of state (its own token verifier, cache and listening connection). */
let other: ApiHandle;
beforeAll(async () => {
  other = await api.startAnother({ validateResponses: true });
});

async function status(url: string, token: string, path = "/v1/products/"): Promise<number> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

describe("organization token cache", () => {
  it("a token deleted through the API on one process is refused by the next request to another", async () => {
    const { org, token } = await orgWithToken(api.knex);
    expect(await status(api.url, token)).toBe(200);
    expect(await status(other.url, token)).toBe(200); // cached in both
    const { id } = await api.knex("organization_access_tokens").where({ organization_id: org.id }).first("id");
    const deleted = await fetch(`${api.url}/v1/organization-access-tokens/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
    expect(await status(other.url, token)).toBe(401);
    expect(await status(api.url, token)).toBe(401);
  });

  it("a revocation in plain SQL and narrowed scopes reach both processes", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const second = await mintOrganizationToken(api.knex, org.id);
    for (const url of [api.url, other.url]) {
      expect(await status(url, token)).toBe(200);
      expect(await status(url, second, "/v1/customers/")).toBe(200);
    }
    await api
      .knex("organization_access_tokens")
      .where({ token_hash: hashToken(token) })
      .update({ revoked_at: api.knex.fn.now() });
    await api
      .knex("organization_access_tokens")
      .where({ token_hash: hashToken(second) })
      .update({ scopes: ["products:read"] });
    // Let the notifications arrive (they are sent at commit, before the next request is).
    await sleep(50);
    for (const url of [api.url, other.url]) {
      expect(await status(url, token)).toBe(401);
      expect(await status(url, second, "/v1/customers/")).toBe(403);
      expect(await status(url, second, "/v1/products/")).toBe(200);
    }
  });

  it("caches nothing while its notifications are down, and listens again", async () => {
    const { org, token } = await orgWithToken(api.knex);
    expect(other.tokens.caching).toBe(true);
    await api.knex.raw(
      "select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and query ilike 'listen organization_access_tokens%'",
    );
    await vi.waitFor(() => expect(other.tokens.caching).toBe(false), { timeout: 5_000 });
    expect(await status(other.url, token)).toBe(200);
    await api.knex("organization_access_tokens").where({ organization_id: org.id }).update({ revoked_at: api.knex.fn.now() });
    expect(await status(other.url, token)).toBe(401); // read from the database, not a cache
    await vi.waitFor(() => expect(other.tokens.caching).toBe(true), { timeout: 10_000 });
  });

  it("never serves a cached token past its own expiry", async () => {
    const org = await createOrganization(api.knex);
    const token = await mintOrganizationToken(api.knex, org.id, { expiresAt: new Date(Date.now() + 1_500) });
    await vi.waitFor(() => expect(api.tokens.caching).toBe(true), { timeout: 10_000 });
    expect(await status(api.url, token)).toBe(200); // cached, for far less than the cache's lifetime
    await sleep(2_000);
    expect(await status(api.url, token)).toBe(401);
  });

  it("records when a token was last used, to the minute", async () => {
    const { org, token } = await orgWithToken(api.knex);
    expect((await api.knex("organization_access_tokens").where({ organization_id: org.id }).first("last_used_at")).last_used_at).toBeNull();
    expect(await status(api.url, token)).toBe(200);
    await vi.waitFor(async () => {
      const row = await api.knex("organization_access_tokens").where({ organization_id: org.id }).first("last_used_at");
      expect(row.last_used_at).not.toBeNull();
    });
  });
});
