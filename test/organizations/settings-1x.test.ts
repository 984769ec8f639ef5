// The organization settings the 1.x client reads: `embed_hosts` (stored, replaced by an update, and
// what lets a page frame the hosted checkout), and the ones Borealis does not offer, shown as off
// and refused on: `dispute_settings.auto_accept_below_amount`; `onboarding_resubmission_requested_at`
// is never set.
import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { checkEmbedHosts, embeddableBy } from "../../server/organizations/embed-hosts.js";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  return { org, token, polar: createPolar({ accessToken: token, baseUrl: api.url }) };
}

async function patch(token: string, id: string, body: unknown) {
  const res = await fetch(`${api.url}/v1/organizations/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { detail: { loc: (string | number)[] }[] } };
}

describe("an organization's 1.x settings", () => {
  it("shows the ones not offered as off, and embed_hosts empty until listed", async () => {
    const { org, polar } = await setup();
    const got = await polar.organizations.get(org.id);
    expect(got).toMatchObject({
      onboarding_resubmission_requested_at: null,
      dispute_settings: { auto_accept_below_amount: null },
      embed_hosts: [],
    });
    expect(got.customer_email_settings.payment_method_expiration_reminder).toBe(true);
    expect(got.customer_email_settings.order_confirmation).toBe(true);
  });

  it("stores embed_hosts trimmed, lowercased and each once; null keeps them; a malformed one is a 422", async () => {
    const { org, token, polar } = await setup();
    const updated = await polar.organizations.update(org.id, {
      embed_hosts: [" Shop.Example.com ", "*.example.org", "localhost:3000", "shop.example.com", "chrome-extension://abcdef"],
    });
    expect(updated.embed_hosts).toEqual(["shop.example.com", "*.example.org", "localhost:3000", "chrome-extension://abcdef"]);
    expect((await polar.organizations.update(org.id, { embed_hosts: null, name: "Kept hosts" })).embed_hosts).toHaveLength(4);
    for (const bad of ["https://shop.example.com", "shop.example.com/path", "shop..example.com", "localhost:70000", "*", ""]) {
      const res = await patch(token, org.id, { embed_hosts: ["ok.example.com", bad] });
      expect(res.status, bad).toBe(422);
      expect(res.body.detail[0]?.loc, bad).toEqual(["body", "embed_hosts", 1]);
    }
    expect((await polar.organizations.update(org.id, { embed_hosts: [] })).embed_hosts).toEqual([]);
  });

  it("refuses to switch on what is not offered, and accepts it off", async () => {
    const { org, token, polar } = await setup();
    const dispute = await patch(token, org.id, { dispute_settings: { auto_accept_below_amount: 1500 } });
    expect(dispute.status).toBe(422);
    expect(dispute.body.detail[0]?.loc).toEqual(["body", "dispute_settings", "auto_accept_below_amount"]);
    const off = await polar.organizations.update(org.id, {
      dispute_settings: { auto_accept_below_amount: null },
      customer_email_settings: {
        ...(await polar.organizations.get(org.id)).customer_email_settings,
        payment_method_expiration_reminder: false,
        order_confirmation: false,
      },
    });
    expect(off.dispute_settings.auto_accept_below_amount).toBeNull();
    expect(off.customer_email_settings).toMatchObject({ payment_method_expiration_reminder: false, order_confirmation: false });
  });

  it("lets the hosted checkout be framed only by a listed host's page, once any is listed", async () => {
    const { org, token, polar } = await setup();
    const { product } = await createCheckoutProduct(api.knex, org.id);
    const ancestorsFor = async (embedOrigin: string) => {
      const res = await fetch(`${api.url}/v1/checkouts/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ products: [product.id], embed_origin: embedOrigin }),
      });
      const { client_secret } = (await res.json()) as { client_secret: string };
      const csp = (await fetch(`${api.url}/checkout/${client_secret}`)).headers.get("content-security-policy") ?? "";
      return /frame-ancestors ([^;]*)/.exec(csp)?.[1];
    };
    // None listed: the page it was opened from, whichever.
    expect(await ancestorsFor("https://anyone.example.net")).toBe("https://anyone.example.net");
    await polar.organizations.update(org.id, { embed_hosts: ["shop.example.com", "*.example.org", "localhost:3000"] });
    expect(await ancestorsFor("https://shop.example.com")).toBe("https://shop.example.com");
    expect(await ancestorsFor("https://a.b.example.org")).toBe("https://a.b.example.org");
    expect(await ancestorsFor("http://localhost:3000")).toBe("http://localhost:3000");
    for (const refused of ["https://anyone.example.net", "http://shop.example.com", "https://example.org", "http://localhost:4000"]) {
      expect(await ancestorsFor(refused), refused).toBe("'none'");
    }
  });
});

describe("embed hosts", () => {
  it("match by host, port, wildcard and scheme", () => {
    const hosts = checkEmbedHosts(
      ["shop.example.com", "*.example.org", "intranet.local", "192.168.1.20:8080", "chrome-extension://abc"],
      ["body", "embed_hosts"],
    );
    expect(embeddableBy(hosts, "https://shop.example.com:8443")).toBe(true);
    expect(embeddableBy(hosts, "http://shop.example.com")).toBe(false);
    expect(embeddableBy(hosts, "https://x.example.org")).toBe(true);
    expect(embeddableBy(hosts, "https://example.org")).toBe(false);
    expect(embeddableBy(hosts, "https://evil-example.org")).toBe(false);
    expect(embeddableBy(hosts, "http://intranet.local")).toBe(true);
    expect(embeddableBy(hosts, "http://192.168.1.20:8080")).toBe(true);
    expect(embeddableBy(hosts, "http://192.168.1.20:8081")).toBe(false);
    expect(embeddableBy(hosts, "chrome-extension://abc")).toBe(true);
    expect(embeddableBy(hosts, "chrome-extension://abd")).toBe(false);
    expect(embeddableBy([], "https://anything.example")).toBe(true);
  });
});
