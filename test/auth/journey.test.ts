// The whole way in, as a new merchant takes it, through better-auth's client, Mailpit and the
// official Polar client: sign up, verify, sign in, create the organization, invite a colleague
// who accepts and works with their cookie, make an access token, use it with the SDK, revoke it.
import { Polar } from "@polar-sh/sdk";
import { PolarError } from "@polar-sh/sdk/models/errors/polarerror.js";
import { describe, expect, it } from "vitest";
import { latestMail, linkIn, PASSWORD, rejects, signedOutClient, uniqueEmail, useTestApi } from "../harness/index.js";

describe("a merchant's first hour", () => {
  const api = useTestApi();

  it("signs up, builds a team and hands a script a token it can take back", async () => {
    // Sign up and verify through the emailed link; then sign in.
    const founder = signedOutClient(api.url);
    const email = uniqueEmail("founder");
    expect((await founder.client.signUp.email({ email, password: PASSWORD, name: "Founder" })).error).toBeNull();
    await founder.fetch(linkIn(await latestMail(email, { subject: /Verify your email/ }), "/api/auth/verify-email"));
    await founder.client.signOut();
    expect((await founder.client.signIn.email({ email, password: PASSWORD })).error).toBeNull();

    // Create the organization and make it the session's.
    const org = await founder.client.organization.create({ name: "Northwind Tools", slug: `northwind-${Date.now().toString(36)}` });
    expect(org.error).toBeNull();
    await founder.client.organization.setActive({ organizationId: org.data!.id });

    // Invite a colleague by email; they sign up, verify, accept and work with their cookie.
    const colleagueEmail = uniqueEmail("colleague");
    const invited = await founder.client.organization.inviteMember({ email: colleagueEmail, role: "member" });
    expect(invited.error).toBeNull();
    const invitationMail = await latestMail(colleagueEmail, { subject: /invited you to Northwind Tools/ });
    const invitationId = decodeURIComponent(linkIn(invitationMail, "/accept-invitation/").split("/accept-invitation/")[1]);
    const colleague = signedOutClient(api.url);
    expect((await colleague.client.signUp.email({ email: colleagueEmail, password: PASSWORD, name: "Colleague" })).error).toBeNull();
    await colleague.fetch(linkIn(await latestMail(colleagueEmail, { subject: /Verify your email/ }), "/api/auth/verify-email"));
    expect((await colleague.client.organization.acceptInvitation({ invitationId })).error).toBeNull();
    await colleague.client.organization.setActive({ organizationId: org.data!.id });
    const listed = await colleague.polar().products.list({});
    expect(listed.result.items).toEqual([]);

    // The founder makes an access token for a script; the script uses the official client.
    const made = await founder.fetch(`${api.url}/v1/organization-access-tokens/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ comment: "catalog sync", scopes: ["products:read", "products:write"] }),
    });
    expect(made.status).toBe(201);
    const { token, organization_access_token: oat } = (await made.json()) as { token: string; organization_access_token: { id: string } };
    const script = new Polar({ accessToken: token, serverURL: api.url });
    const product = await script.products.create({
      name: "Anvil",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 4900, priceCurrency: "usd" }],
    });
    expect((await colleague.polar().products.get({ id: product.id })).name).toBe("Anvil");

    // Revoked, the token gets 401 on its next call.
    expect((await founder.fetch(`${api.url}/v1/organization-access-tokens/${oat.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await rejects(script.products.list({}), PolarError)).statusCode).toBe(401);
  });
});
