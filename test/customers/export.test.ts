// customers:export through the 0.49 client: Polar's columns, live customers oldest first, the
// caller's organization only, the time zone, and the errors (422 bad parameters, 403 scopes).
import { describe, expect, it } from "vitest";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

const HEADER =
  "ID,External ID,Created At,Email,Name,Tax ID,Billing Address Line 1,Billing Address Line 2,Billing Address City," +
  "Billing Address State,Billing Address Zip,Billing Address Country,Metadata";

describe("customers export", () => {
  it("answers every live customer of the caller's organization as CSV through the 0.49 client", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const ada = await polar.customers.create({
      email: "ada@example.com",
      name: "Ada, Countess",
      externalId: "user_1",
      billingAddress: { country: "DE", line1: "Hauptstraße 1", postalCode: "10115", city: "Berlin" },
      taxId: "DE136695976",
      metadata: { plan: "pro" },
    });
    const bob = await createCustomer(api.knex, org.id, {
      email: "bob@example.com",
      name: "=cmd()",
      created_at: new Date("2030-01-01T00:00:00Z"),
    });
    const gone = await createCustomer(api.knex, org.id, { email: "gone@example.com", deleted_at: new Date() });
    const other = await orgWithToken(api.knex);
    await createCustomer(api.knex, other.org.id, { email: "stranger@example.com" });

    const csv = await polar.customers.export({});
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(4); // header, two customers, the final line end
    expect(lines[3]).toBe("");
    expect(lines[1]).toBe(
      `${ada.id},user_1,${ada.createdAt.toISOString()},ada@example.com,"Ada, Countess",DE136695976,Hauptstraße 1,,Berlin,,10115,DE,` +
        `"{""plan"":""pro""}"`,
    );
    // A cell a spreadsheet would run as a formula is defused.
    expect(lines[2]).toBe(`${bob.id},,2030-01-01T00:00:00.000Z,bob@example.com,'=cmd(),,,,,,,,`);
    expect(csv).not.toContain(gone.id);
    expect(csv).not.toContain("stranger@example.com");

    // Its own organization named: the same file; another's: the header alone.
    expect(await polar.customers.export({ organizationId: org.id })).toBe(csv);
    expect(await polar.customers.export({ organizationId: other.org.id })).toBe(`${HEADER}\r\n`);

    const zoned = await fetch(`${api.url}/v1/customers/export?timezone=Asia/Kolkata`, { headers: { authorization: `Bearer ${token}` } });
    expect(zoned.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await zoned.text()).split("\r\n")[2]).toContain(",2030-01-01T05:30:00.000+05:30,");
  });

  it("refuses bad parameters with a 422 and a token without a customers scope with a 403", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const bad = await rejects(polar.customers.export({ organizationId: "not-a-uuid" }), HTTPValidationError);
    expect(bad.detail?.[0].loc).toEqual(["query", "organization_id", 0]);
    const zone = await fetch(`${api.url}/v1/customers/export?timezone=Nowhere/Else`, { headers: { authorization: `Bearer ${token}` } });
    expect(zone.status).toBe(422);
    expect(((await zone.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["query", "timezone"]);

    const narrow = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    expect((await rejects(api.client049(narrow.token).customers.export({}), SDKError)).statusCode).toBe(403);
    expect((await rejects(api.client049("polar_oat_unknown").customers.export({}), SDKError)).statusCode).toBe(401);
  });
});
