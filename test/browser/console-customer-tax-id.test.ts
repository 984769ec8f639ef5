// The customer's tax id check on the console's customer page, in Chromium against the
// running stack and its worker: a tax id confirmed by VIES shows the registry's name and address,
// one HMRC could not check says so; VIES and HMRC are the local stand-ins (test/tax/), the page
// passes axe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orgWithToken } from "../harness/index.js";
import { HMRC_CLIENT, startRegistryStandIns, type RegistryStandIns } from "../tax/registry-stand-ins.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";

describe("merchant console: a customer's tax id check", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();
  let registries: RegistryStandIns;
  const saved = new Map<string, string | undefined>();

  beforeAll(async () => {
    registries = await startRegistryStandIns();
    registries.vies.set("FR40303265045", { name: "SA ODIGEO FRANCE", address: "1 RUE DE LA PAIX\n75002 PARIS" });
    const env = {
      VIES_URL: registries.viesUrl,
      HMRC_URL: registries.hmrcUrl,
      HMRC_CLIENT_ID: HMRC_CLIENT.id,
      HMRC_CLIENT_SECRET: HMRC_CLIENT.secret,
    };
    for (const [name, value] of Object.entries(env)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });

  afterAll(async () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await registries.close();
  });

  /** The customer's check status once the worker has recorded one. */
  const settled = (id: string) =>
    expect
      .poll(async () => (await stack.knex("customers").where({ id }).first()).tax_id_check_status, { timeout: 20_000 })
      .not.toBe("unchecked");

  it("shows the tax id confirmed by VIES with the registered name and address, and one HMRC could not reach", async () => {
    const { token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const confirmed = await polar.customers.create({
      email: "acme@example.com",
      name: "Acme",
      billingAddress: { country: "FR" },
      taxId: ["FR40303265045", "eu_vat"],
    });
    registries.mode.hmrc = "down";
    const unreachable = await polar.customers.create({
      email: "uk@example.com",
      billingAddress: { country: "GB" },
      taxId: ["GB980780684", "gb_vat"],
    });
    await settled(confirmed.id);
    await settled(unreachable.id);

    const page = await stack.newPage();
    await signIn(stack, page, token);
    await page.goto(`${stack.url}/dashboard/customers/${confirmed.id}/show`);
    const check = page.getByTestId("tax-id-check");
    await check.getByText(/^Confirmed by VIES on /).waitFor();
    expect(await check.innerText()).toContain("FR40303265045 (EU VAT)");
    expect(await check.innerText()).toContain("Registered name: SA ODIGEO FRANCE");
    expect(await check.innerText()).toContain("Registered address: 1 RUE DE LA PAIX\n75002 PARIS");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-tax-id");

    await page.goto(`${stack.url}/dashboard/customers/${unreachable.id}/show`);
    await check.getByText(/^HMRC could not be reached on .*; it is asked again later$/).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-tax-id-unavailable", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
