// Tax ids: every type of the contract's TaxIDFormat is either checked, by stdnum or by validator's
// format (a valid and an invalid example each), or listed as unchecked with its reason; EU VAT
// numbers by member state.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkTaxId, detectTaxId, isTaxIdType, TAX_ID_TYPES, uncheckedReason, type TaxIdType } from "../../server/tax/tax-ids.js";

const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const CONTRACT_TYPES: string[] = contract.components.schemas.TaxIDFormat.enum;

// [type, a valid id, the same id with a wrong check digit (or a wrong form), the normalised value, its country]
const CHECKED: [TaxIdType, string, string, string, string][] = [
  ["ad_nrt", "U-132950-X", "I 706193 G", "U132950X", "AD"],
  ["ar_cuit", "20-05536168-2", "20-05536168-3", "20055361682", "AR"],
  ["au_abn", "83 914 571 673", "83 914 571 674", "83914571673", "AU"],
  ["br_cnpj", "16.727.230/0001-97", "16.727.230/0001-98", "16727230000197", "BR"],
  ["br_cpf", "390.533.447-05", "390.533.447-06", "39053344705", "BR"],
  ["ca_bn", "12302 6635", "12302 6636", "123026635", "CA"],
  ["ca_gst_hst", "754039725 RT 0001", "754039729 RT 0001", "754039725RT0001", "CA"],
  ["ca_pst_bc", "PST-1234-5678", "PST-1234-567", "PST12345678", "CA"],
  ["ca_qst", "1224002901 TQ 0001", "1224002902 TQ 0001", "1224002901TQ0001", "CA"],
  ["ch_uid", "CHE-100.155.212", "CHE-100.155.213", "CHE100155212", "CH"],
  ["ch_vat", "CHE-107.787.577 IVA", "CHE-107.787.578 IVA", "CHE107787577IVA", "CH"],
  ["cl_tin", "76086428-5", "12531909-3", "760864285", "CL"],
  ["cn_tin", "91110000600037341L", "91110000600037341M", "91110000600037341L", "CN"],
  ["co_nit", "213.123.432-1", "213.123.432-2", "2131234321", "CO"],
  ["cr_tin", "3-101-999999", "3-534-123559", "3101999999", "CR"],
  ["de_stn", "10863924976", "1234567890", "10863924976", "DE"],
  ["do_rcn", "1-01-85004-3", "1-01-85004-4", "101850043", "DO"],
  ["ec_ruc", "1792060346-001", "1792060347-001", "1792060346001", "EC"],
  ["eg_tin", "100-531-385", "VV3456789", "100531385", "EG"],
  ["es_cif", "J99216582", "J99216583", "J99216582", "ES"],
  ["gb_vat", "GB 980 7806 84", "GB 980 7806 85", "GB980780684", "GB"],
  ["hr_oib", "33392005961", "33392005962", "33392005961", "HR"],
  ["id_npwp", "01.312.166.0-091.000", "01.312.166.1-091.000", "013121660091000", "ID"],
  ["il_vat", "516179157", "516179158", "516179157", "IL"],
  ["in_gst", "27AAPFU0939F1ZV", "27AAPFU0939F1Z0", "27AAPFU0939F1ZV", "IN"],
  ["is_vat", "IS 00621", "IS 0062199", "00621", "IS"],
  ["jp_cn", "5-8356-7825-6246", "2-8356-7825-6246", "5835678256246", "JP"],
  ["ke_pin", "P051365947M", "P05136594M7", "P051365947M", "KE"],
  ["kr_brn", "116-82-00276", "116-82-00278", "1168200276", "KR"],
  ["kz_bin", "123456789012", "12345678901", "123456789012", "KZ"],
  ["li_uid", "CHE-100.155.212", "CHE-100.155.213", "CHE100155212", "LI"],
  ["mx_rfc", "GODE 561231 GR8", "GODE 561231 GR9", "GODE561231GR8", "MX"],
  ["ng_tin", "12345678-0001", "12345678-001", "123456780001", "NG"],
  ["no_vat", "NO 995 525 828 MVA", "NO 995 525 829 MVA", "995525828MVA", "NO"],
  ["nz_gst", "4909185-0", "4909185-1", "49091850", "NZ"],
  ["pe_ruc", "20512333797", "20512333798", "20512333797", "PE"],
  ["ph_tin", "123 456 789 012", "123-456-789", "123456789012", "PH"],
  ["ro_tin", "1630615123457", "1630615123458", "1630615123457", "RO"],
  ["rs_pib", "101134702", "101134701", "101134702", "RS"],
  ["ru_inn", "123456789047", "123456789048", "123456789047", "RU"],
  ["sa_vat", "123456789012345", "1234567890123456", "123456789012345", "SA"],
  ["sg_uen", "197401143C", "197401143D", "197401143C", "SG"],
  ["si_tin", "SI 5022 3054", "SI 5022 3053", "50223054", "SI"],
  ["sv_nit", "0614-050707-104-8", "0614-050707-104-9", "06140507071048", "SV"],
  ["th_vat", "0994000165510", "0994000165511", "0994000165510", "TH"],
  ["tr_tin", "4540536920", "4540536921", "4540536920", "TR"],
  ["tw_vat", "00501503", "00501502", "00501503", "TW"],
  ["us_ein", "04-2103594", "00-3456789", "042103594", "US"],
  ["uy_ruc", "21-100342-001-7", "21-100342-001-8", "211003420017", "UY"],
  ["ve_rif", "V-11470283-4", "V-11470283-5", "V114702834", "VE"],
  ["vn_tin", "0100233488", "0100233489", "0100233488", "VN"],
  ["za_vat", "499 9999 999", "399 9999 999", "4999999999", "ZA"],
];

// A valid VAT number of each member state (and Northern Ireland's XI), then its country.
const EU_VAT: [string, string][] = [
  ["ATU13585627", "AT"],
  ["BE0403019261", "BE"],
  ["BG175074752", "BG"],
  ["CY10259033P", "CY"],
  ["CZ25123891", "CZ"],
  ["DE136695976", "DE"],
  ["DK13585628", "DK"],
  ["EE100931558", "EE"],
  ["EL094259216", "GR"],
  ["ESB58378431", "ES"],
  ["FI20774740", "FI"],
  ["FR40303265045", "FR"],
  ["HR33392005961", "HR"],
  ["HU12892312", "HU"],
  ["IE6433435F", "IE"],
  ["IT00743110157", "IT"],
  ["LT119511515", "LT"],
  ["LU15027442", "LU"],
  ["LV40003521600", "LV"],
  ["MT11679112", "MT"],
  ["NL004495445B01", "NL"],
  ["PL8567346215", "PL"],
  ["PT501964843", "PT"],
  ["RO18547290", "RO"],
  ["SE123456789701", "SE"],
  ["SI50223054", "SI"],
  ["SK2022749619", "SK"],
  ["XI980780684", "GB"],
];

/** The same number with its first digit changed, which its check digit catches. */
function corrupt(value: string): string {
  const i = value.slice(2).search(/\d/) + 2;
  return value.slice(0, i) + ((Number(value[i]) + 1) % 10) + value.slice(i + 1);
}

describe("tax ids", () => {
  it("cover exactly the contract's TaxIDFormat types, each checked or listed unchecked with a reason", () => {
    expect(Object.keys(TAX_ID_TYPES).sort()).toEqual([...CONTRACT_TYPES].sort());
    const checked = new Set<string>([...CHECKED.map(([t]) => t), "eu_vat"]);
    for (const type of CONTRACT_TYPES) {
      if (!isTaxIdType(type)) throw new Error(`${type} is not a tax id type`);
      const reason = uncheckedReason(type);
      if (reason !== null) {
        expect(checked.has(type), type).toBe(false);
        expect(reason).toMatch(/^no library here checks this number \(.+\)$/);
      } else {
        expect(checked.has(type), `${type} needs a valid and an invalid example`).toBe(true);
      }
    }
  });

  it.each(CHECKED)("%s: %s is valid, %s is not (format or checksum)", (type, valid, invalid, value, country) => {
    expect(checkTaxId(valid, type)).toEqual({ type, value, country, checked: true, valid: true, reason: null });
    const bad = checkTaxId(invalid, type);
    expect(bad).toMatchObject({ type, country, checked: true, valid: false });
    expect(bad.reason).toEqual(expect.any(String));
  });

  it.each(EU_VAT)("eu_vat %s is %s's, and fails with a wrong check digit", (number, country) => {
    expect(checkTaxId(number.toLowerCase().replace(/(\d{3})/, "$1 "), "eu_vat")).toEqual({
      type: "eu_vat",
      value: number,
      country,
      checked: true,
      valid: true,
      reason: null,
    });
    expect(checkTaxId(corrupt(number), "eu_vat")).toMatchObject({ valid: false, checked: true, country });
  });

  it("takes an EU VAT number's prefix from the billing country when it is missing", () => {
    expect(checkTaxId("40303265045", "eu_vat", "FR")).toMatchObject({ value: "FR40303265045", country: "FR", valid: true });
    expect(checkTaxId("094259216", "eu_vat", "GR")).toMatchObject({ value: "EL094259216", country: "GR", valid: true });
    expect(checkTaxId("40303265045", "eu_vat", "US")).toMatchObject({ valid: false });
    expect(checkTaxId("GB980780684", "eu_vat")).toMatchObject({ valid: false, reason: '"GB" is not an EU VAT prefix.' });
  });

  it("lists the types neither stdnum nor validator can check", () => {
    const unchecked = Object.keys(TAX_ID_TYPES).filter((t) => isTaxIdType(t) && uncheckedReason(t) !== null);
    expect(unchecked.sort()).toEqual(
      "ae_trn au_arn bg_uic bh_vat bo_tin ca_pst_mb ca_pst_sk eu_oss_vat ge_vat hk_br hu_tin jp_rn jp_trn my_frp my_itn my_sst no_voec om_vat ru_kpp sg_gst ua_vat".split(
        " ",
      ),
    );
  });

  it("checks Stripe's examples of kz_bin, ng_tin, ph_tin and sa_vat by their form, the country prefix dropped", () => {
    for (const [value, type] of [
      ["123456789012", "kz_bin"],
      ["12345678-0001", "ng_tin"],
      ["123456789012", "ph_tin"],
      ["123456789012345", "sa_vat"],
    ] as const) {
      expect(checkTaxId(value, type), type).toMatchObject({ checked: true, valid: true });
      expect(checkTaxId(`${type.slice(0, 2).toUpperCase()}${value}`, type).value, type).toBe(value.replace("-", ""));
      expect(checkTaxId(`${value}X`, type), type).toMatchObject({ checked: true, valid: false });
    }
  });

  it("accepts the unchecked types unchecked, and says so", () => {
    expect(checkTaxId(" eu 372 000 041 ", "eu_oss_vat")).toEqual({
      type: "eu_oss_vat",
      value: "EU372000041",
      country: null,
      checked: false,
      valid: true,
      reason: expect.stringContaining("OSS"),
    });
    expect(checkTaxId("M2-0012345-6", "sg_gst")).toMatchObject({ value: "M200123456", country: "SG", checked: false, valid: true });
    expect(checkTaxId("  ", "ae_trn")).toMatchObject({ checked: false, valid: false });
  });
});

describe("a bare tax id's type, from the billing country", () => {
  it("finds the country's type the value is valid as", () => {
    expect(detectTaxId("136 695 976", "DE")).toMatchObject({ type: "eu_vat", value: "DE136695976", valid: true });
    expect(detectTaxId("EL094259216", "GR")).toMatchObject({ type: "eu_vat", value: "EL094259216" });
    expect(detectTaxId("04-2103594", "us")).toMatchObject({ type: "us_ein", value: "042103594" });
    expect(detectTaxId("GB 980 7806 84", "GB")).toMatchObject({ type: "gb_vat", value: "GB980780684" });
    // a GST/HST number before the business number it contains
    expect(detectTaxId("754039725RT0001", "CA")).toMatchObject({ type: "ca_gst_hst" });
    expect(detectTaxId("CHE-107.787.577 MWST", "CH")).toMatchObject({ type: "ch_vat" });
    expect(detectTaxId("12345678-0001", "NG")).toMatchObject({ type: "ng_tin", value: "123456780001", checked: true });
    // only unchecked types in the country: taken as given
    expect(detectTaxId("100123456700003", "AE")).toMatchObject({ type: "ae_trn", checked: false, valid: true });
  });

  it("answers null for a wrong check digit, another member state's number, or a country whose checked types refuse it", () => {
    expect(detectTaxId("136695977", "DE")).toBeNull();
    expect(detectTaxId("DE136695976", "FR")).toBeNull();
    // Canada's unchecked PST numbers do not swallow what its checked types refuse
    expect(detectTaxId("DE123456789", "CA")).toBeNull();
    // a form-checked type refuses another form
    expect(detectTaxId("12345", "SA")).toBeNull();
    expect(detectTaxId("anything", "ZZ")).toBeNull();
  });
});
