// The countries an address takes, and the portal's picker offers: exactly the contract's
// CountryAlpha2 (the assigned ISO 3166-1 codes, what the 1.x client declares an Address's country
// to be), given in any case; a code ICU knows that is not an assigned country (UK, XK, a former
// country) is refused. CLDR (Node's ICU) keeps the list honest: every region it names under its
// own code, less groupings and reserved codes, is in it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isCountry } from "../../server/customers/address.js";
import { countryCodes } from "../../shared/countries.js";
import { orgWithToken, uniqueEmail, useTestApi } from "../harness/index.js";

const api = useTestApi();
const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

describe("an address's country", () => {
  it("is one of the contract's CountryAlpha2 codes, and every one of them is taken", () => {
    const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
    const taken = letters.flatMap((a) => letters.map((b) => a + b)).filter(isCountry);
    expect(taken).toEqual(contract.components.schemas.CountryAlpha2.enum);
    expect(countryCodes()).toEqual(contract.components.schemas.CountryAlpha2.enum);
    expect(contract.components.schemas.Address.properties.country).toEqual({ $ref: "#/components/schemas/CountryAlpha2" });
  });

  it("is every region CLDR names under its own code, less groupings and reserved codes, and no alias", () => {
    const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    // A withdrawn code (DD, FX, UK, SU, YU, CS…) is an alias: CLDR names it as the country it became.
    const canonical = (code: string) => Intl.getCanonicalLocales(`und-${code}`)[0].split("-")[1];
    const regions = letters.flatMap((a) => letters.map((b) => a + b)).filter((code) => names.of(code) !== code && canonical(code) === code);
    const notCountries = ["AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "XK", "ZZ"];
    expect(regions.filter((code) => !notCountries.includes(code))).toEqual(countryCodes());
    for (const withdrawn of ["DD", "FX", "UK", "SU", "YU", "CS"]) {
      expect(canonical(withdrawn)).not.toBe(withdrawn);
      expect(isCountry(withdrawn)).toBe(false);
    }
  });

  it("is given in any case and stored as the code; a code that is no country is refused", async () => {
    const { token } = await orgWithToken(api.knex);
    // Raw calls: the 1.x client's types take upper case assigned codes only.
    const create = async (country: string) => {
      const res = await fetch(`${api.url}/v1/customers/`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail(country), billing_address: { country } }),
      });
      return { status: res.status, body: (await res.json()) as { billing_address?: { country: string }; detail?: { loc: unknown[] }[] } };
    };
    const gb = await create("gb");
    expect(gb.status).toBe(201);
    expect(gb.body.billing_address?.country).toBe("GB");
    const uk = await create("UK");
    expect(uk.status).toBe(422);
    expect(uk.body.detail?.[0].loc).toEqual(["body", "billing_address", "country"]);
  });
});
