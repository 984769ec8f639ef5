// The organization's OAuth2 applications in the console's settings, in Chromium against the running
// stack, signed in with a password (registration acts as the person): registering one (a bad link
// refused under its field, a wallets scope picked, then the client secret shown once), editing it
// (the scope kept), deleting it; the list,
// the form and the secret pass axe.
import { describe, expect, it } from "vitest";
import { ownerWithOrganization, PASSWORD } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";

describe("merchant console: OAuth2 applications", { timeout: 300_000 }, () => {
  const stack = useBrowserStack({ worker: false });

  it("registers, edits and deletes an application", async () => {
    const owner = await ownerWithOrganization(stack.url, "Ada");
    const email = (await owner.browser.client.getSession()).data?.user.email ?? "";
    const clients = () =>
      stack.knex("oauth_clients").where({ reference_id: owner.organizationId }).select("client_id", "name", "redirect_uris", "scopes");
    const page = await stack.newPage({ allow: [{ status: 401, url: "/api/auth/" }] });
    await page.goto(`${stack.url}/dashboard/login`);
    await page.getByLabel("Email").fill(email, { timeout: 60_000 });
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor({ timeout: 60_000 });
    await page.waitForLoadState("networkidle");

    await page.getByRole("menuitem", { name: "OAuth2 applications" }).click();
    await page.getByText("No OAuth2 applications yet").waitFor();
    await page.getByRole("link", { name: "New" }).first().click();
    await page.getByLabel("Name").fill("Acme integration");
    await page.getByLabel("Redirect URIs").fill("https://acme.example/callback\nhttps://acme.example/other");
    // the scopes come from the contract's AuthorizeScope: the wallets' among them
    await page.getByLabel("Scopes").fill("wallets:r");
    await page.getByRole("option", { name: "wallets:read", exact: true }).click();
    await page.getByLabel("Logo URL").fill("javascript:alert(1)");
    stack.allow(page, { status: 400, url: "/v1/oauth2/register" });
    await page.getByRole("button", { name: "Save" }).click();
    // said under the field: the text its input is described by
    await page.getByText("URL scheme should be 'http' or 'https'").waitFor();
    const describedBy = await page.getByRole("textbox", { name: "Logo URL" }).getAttribute("aria-describedby");
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/scheme should be 'http'/);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-oauth2-client-create");

    await page.getByLabel("Logo URL").fill("https://acme.example/logo.png");
    const registering = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/v1/oauth2/register"));
    await page.getByRole("button", { name: "Save" }).click();
    expect(((await registering).postDataJSON() as { scope: string }).scope).toBe("openid profile email wallets:read");
    const secret = page.getByTestId("secret");
    await secret.waitFor();
    expect((await secret.textContent())?.length).toBeGreaterThan(20);
    expect(await clients()).toMatchObject([
      {
        name: "Acme integration",
        redirect_uris: ["https://acme.example/callback", "https://acme.example/other"],
      },
    ]);
    await stack.check(page, "console-oauth2-client-secret");
    await page.getByRole("button", { name: "I have copied it" }).click();

    // the edit page: its client ID, the same fields; saved, back to the list
    const [client] = await clients();
    await page.getByText(client.client_id).waitFor();
    // the scopes picked are stored (with offline_access: its refresh_token grant); the edit narrows them
    expect([...((await clients())[0]?.scopes ?? [])].sort()).toEqual(["email", "offline_access", "openid", "profile", "wallets:read"]);
    await page.getByRole("button", { name: "email", exact: true }).locator(".MuiChip-deleteIcon").click();
    await page.getByLabel("Name").fill("Acme, renamed");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("cell", { name: "Acme, renamed" }).waitFor();
    await expect.poll(async () => (await clients())[0]?.name).toBe("Acme, renamed");
    expect((await clients())[0]?.scopes).toContain("wallets:read");
    expect((await clients())[0]?.scopes).not.toContain("email");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-oauth2-clients");

    await page.getByRole("cell", { name: "Acme, renamed" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("No OAuth2 applications yet").waitFor();
    expect(await clients()).toEqual([]);
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
