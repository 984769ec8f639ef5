// Organization access tokens through the API (Polar's /v1/organization-access-tokens/, which the
// official client 0.34.17 does not have yet, so plain HTTP here): an owner signed in with a session
// cookie makes one, the official client works with it within its scopes, narrowing or deleting it
// takes effect at once; tokens are stored hashed and never grant more than their maker holds.
import { Polar } from "@polar-sh/sdk";
import { PolarError } from "@polar-sh/sdk/models/errors/polarerror.js";
import { describe, expect, it } from "vitest";
import { hashToken } from "../../server/kit/auth.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import { AVAILABLE_SCOPES, durationSeconds } from "../../server/organization-access-tokens/service.js";
import {
  type Browser,
  orgWithToken,
  ownerWithOrganization,
  rejects,
  signedOutClient,
  signUpVerified,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";
import spec from "../../generated/openapi.json" with { type: "json" };

const api = useTestApi();

interface TokenOut {
  id: string;
  organization_id: string;
  comment: string;
  scopes: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  modified_at: string | null;
}

type Auth = { browser: Browser } | { token: string };

/** The status of the official client's error (typed or generic). */
const statusOf = async (p: Promise<unknown>) => (await rejects(p, PolarError)).statusCode;

/** What the answers of these calls hold, all in one (each test reads the fields of its answer). */
interface Answer extends TokenOut {
  items: TokenOut[];
  pagination: { total_count: number; max_page: number };
  detail: { loc: (string | number)[]; msg: string }[];
  organization_access_token: TokenOut;
  token: string;
}

async function call(auth: Auth, method: string, path: string, body?: unknown): Promise<{ status: number; json: Answer }> {
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const url = `${api.url}/v1/organization-access-tokens/${path}`;
  const res =
    "browser" in auth
      ? await auth.browser.fetch(url, init)
      : await fetch(url, { ...init, headers: { ...headers, authorization: `Bearer ${auth.token}` } });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

describe("organization access tokens", () => {
  it("are made by a signed-in owner, work with the official client within their scopes, and stop working when deleted", async () => {
    const owner = await ownerWithOrganization(api.url);
    const made = await call(owner, "POST", "", { comment: "CI deploys", scopes: ["products:read", "products:write"], expires_in: "P30D" });
    expect(made.status).toBe(201);
    const { organization_access_token: oat, token } = made.json;
    expect(token).toMatch(/^polar_oat_[0-9A-Za-z]{40}$/);
    expect(oat).toMatchObject({
      organization_id: owner.organizationId,
      comment: "CI deploys",
      scopes: ["products:read", "products:write"],
      last_used_at: null,
    });
    const days = (new Date(oat.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const stored = await api.knex("organization_access_tokens").where({ id: oat.id }).first();
    expect(stored.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const polar = new Polar({ accessToken: token, serverURL: api.url });
    const product = await polar.products.create({ name: "Made with a token", recurringInterval: null, prices: [{ amountType: "free" }] });
    expect((await polar.products.list({})).result.items.map((p) => p.id)).toContain(product.id);
    expect(await statusOf(polar.customers.list({}))).toBe(403);

    const listed = await call(owner, "GET", "");
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((t) => t.id)).toEqual([oat.id]);
    expect(JSON.stringify(listed.json)).not.toContain(token);

    const narrowed = await call(owner, "PATCH", oat.id, { comment: "CI reads", scopes: ["products:read"] });
    expect(narrowed.status).toBe(200);
    expect(narrowed.json).toMatchObject({ comment: "CI reads", scopes: ["products:read"] });
    expect(narrowed.json.modified_at).not.toBeNull();
    expect(await statusOf(polar.products.create({ name: "No longer", recurringInterval: null, prices: [{ amountType: "free" }] }))).toBe(
      403,
    );
    expect((await polar.products.list({})).result.items.length).toBeGreaterThan(0);

    expect((await call(owner, "DELETE", oat.id)).status).toBe(204);
    expect(await statusOf(polar.products.list({}))).toBe(401);
    expect((await call(owner, "GET", "")).json.items).toEqual([]);
    expect((await call(owner, "DELETE", oat.id)).status).toBe(404);
    expect((await call(owner, "PATCH", oat.id, { comment: "gone" })).status).toBe(404);
  });

  it("are made by a token with organization_access_tokens:write, never with a scope it lacks", async () => {
    const { org } = await orgWithToken(api.knex);
    const maker = await mintOrganizationToken(api.knex, org.id, { scopes: ["organization_access_tokens:write", "products:read"] });
    const ok = await call({ token: maker }, "POST", "", { comment: "", scopes: ["products:read"], expires_in: 3600 });
    expect(ok.status).toBe(201);
    expect(new Date(ok.json.organization_access_token.expires_at!).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    const beyond = await call({ token: maker }, "POST", "", { comment: "escalate", scopes: ["customers:read"] });
    expect(beyond.status).toBe(422);
    expect(beyond.json.detail[0].loc).toEqual(["body", "scopes"]);
    const widen = await call({ token: maker }, "PATCH", ok.json.organization_access_token.id, {
      scopes: ["products:read", "refunds:write"],
    });
    expect(widen.status).toBe(422);
    // Reading the list needs a read (or write) scope; this token only writes.
    expect((await call({ token: maker }, "GET", "")).status).toBe(200);
    const reader = await mintOrganizationToken(api.knex, org.id, { scopes: ["products:read"] });
    expect((await call({ token: reader }, "GET", "")).status).toBe(403);
    expect((await call({ token: reader }, "POST", "", { comment: "x", scopes: ["products:read"] })).status).toBe(403);
  });

  it("are changed or revoked only by a caller holding every scope they hold; a token may revoke itself", async () => {
    const { org, token: strongest } = await orgWithToken(api.knex);
    const strong = await api
      .knex("organization_access_tokens")
      .where({ token_hash: hashToken(strongest) })
      .first("id", "scopes", "comment");
    const weak = await mintOrganizationToken(api.knex, org.id, { scopes: ["organization_access_tokens:write", "products:read"] });
    const refused = {
      error: "NotPermitted",
      detail: expect.stringMatching(/^This token holds scopes you do not hold \(.*customers:write.*\)/),
    };
    for (const [method, body] of [
      ["PATCH", { scopes: ["products:read"] }],
      ["PATCH", { comment: "mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call({ token: weak }, method, strong.id, body);
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(403);
      expect(res.json).toEqual(refused);
    }
    expect(await api.knex("organization_access_tokens").where({ id: strong.id }).first("scopes", "comment", "revoked_at")).toEqual({
      scopes: strong.scopes,
      comment: strong.comment,
      revoked_at: null,
    });
    expect((await api.client(strongest).customers.list({})).result.items).toBeDefined();

    // Within its own scopes it manages tokens, and it may revoke itself.
    const made = await call({ token: weak }, "POST", "", { comment: "reader", scopes: ["products:read"] });
    const reader = made.json.organization_access_token;
    expect((await call({ token: weak }, "PATCH", reader.id, { comment: "still a reader" })).status).toBe(200);
    expect((await call({ token: weak }, "DELETE", reader.id)).status).toBe(204);
    const self = await api
      .knex("organization_access_tokens")
      .where({ token_hash: hashToken(weak) })
      .first("id");
    expect((await call({ token: weak }, "DELETE", self.id)).status).toBe(204);
    expect((await call({ token: weak }, "GET", "")).status).toBe(401);
    // The strongest token, and an owner's session (the console), still manage any token.
    expect((await call({ token: strongest }, "PATCH", strong.id, { comment: "owner's" })).status).toBe(200);
    const owner = await ownerWithOrganization(api.url);
    const full = await mintOrganizationToken(api.knex, owner.organizationId);
    const fullId = (
      await api
        .knex("organization_access_tokens")
        .where({ token_hash: hashToken(full) })
        .first("id")
    ).id;
    expect((await call(owner, "PATCH", fullId, { scopes: ["products:read"] })).status).toBe(200);
    expect((await call(owner, "DELETE", fullId)).status).toBe(204);
  });

  it("reject bad input with 422 and another organization's tokens with 404", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const other = await orgWithToken(api.knex);
    for (const body of [
      { comment: "no scopes", scopes: [] },
      { comment: "unknown scope", scopes: ["openid"] },
      { comment: "years", scopes: ["products:read"], expires_in: "P1Y" },
      { comment: "negative", scopes: ["products:read"], expires_in: -5 },
      { comment: "garbage", scopes: ["products:read"], expires_in: "thirty days" },
      { comment: "another org", scopes: ["products:read"], organization_id: other.org.id },
      { scopes: ["products:read"] },
    ]) {
      const res = await call({ token }, "POST", "", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.detail[0].loc[0]).toBe("body");
    }
    const theirs = await api.knex("organization_access_tokens").where({ organization_id: other.org.id }).first("id");
    expect((await call({ token }, "PATCH", theirs.id, { comment: "mine" })).status).toBe(404);
    expect((await call({ token }, "DELETE", theirs.id)).status).toBe(404);
    expect((await call({ token }, "DELETE", "not-a-uuid")).status).toBe(422);
    const mine = await call({ token }, "GET", `?organization_id=${other.org.id}`);
    expect(mine.json.items).toEqual([]);
    const sorted = await call({ token }, "GET", "?sorting=-created_at&sorting=comment&limit=1");
    expect(sorted.status).toBe(200);
    expect(sorted.json.pagination.total_count).toBeGreaterThanOrEqual(1);
    expect((await api.knex("organization_access_tokens").where({ organization_id: org.id })).length).toBeGreaterThanOrEqual(1);
  });

  it("are not a member's to see or make", async () => {
    const owner = await ownerWithOrganization(api.url);
    const email = uniqueEmail("member");
    await owner.browser.client.organization.inviteMember({ email, role: "member", organizationId: owner.organizationId });
    const member = signedOutClient(api.url);
    await signUpVerified(member, { email, name: "Member" });
    const invitation = await api.knex("invitations").where({ email, organization_id: owner.organizationId }).first("id");
    await member.client.organization.acceptInvitation({ invitationId: invitation.id });
    await member.client.organization.setActive({ organizationId: owner.organizationId });
    expect((await call({ browser: member }, "GET", "")).status).toBe(403);
    expect((await call({ browser: member }, "POST", "", { comment: "x", scopes: ["products:read"] })).status).toBe(403);
  });

  it("offer every contract scope but the user and web ones, and read ISO 8601 durations", () => {
    const contract = (spec as { components: { schemas: Record<string, { enum?: string[] }> } }).components.schemas.AvailableScope.enum;
    expect([...AVAILABLE_SCOPES].sort()).toEqual([...(contract ?? [])].sort());
    expect(durationSeconds("P30D")).toBe(30 * 86400);
    expect(durationSeconds("PT1H30M")).toBe(5400);
    expect(durationSeconds("P1W")).toBe(7 * 86400);
    expect(durationSeconds("P1Y")).toBeNull();
    expect(durationSeconds("P")).toBeNull();
    expect(durationSeconds("PT")).toBeNull();
  });
});
