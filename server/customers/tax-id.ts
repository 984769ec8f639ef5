// Tax ids: the format of each type of the contract's TaxIDFormat list (Stripe's list), checked
// on the compact value (whitespace removed, upper case). The API carries a tax id as the pair
// [value, type]; the portal sends a bare value, whose type is found from the billing country.
import { invalid } from "../kit/errors.js";

export type TaxId = [string, string];

const EU_VAT: Record<string, RegExp> = {
  AT: /^ATU\d{8}$/,
  BE: /^BE[01]\d{9}$/,
  BG: /^BG\d{9,10}$/,
  CY: /^CY\d{8}[A-Z]$/,
  CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/,
  EE: /^EE\d{9}$/,
  EL: /^EL\d{9}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^HR\d{11}$/,
  HU: /^HU\d{8}$/,
  IE: /^IE(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^IT\d{11}$/,
  LT: /^LT(\d{9}|\d{12})$/,
  LU: /^LU\d{8}$/,
  LV: /^LV\d{11}$/,
  MT: /^MT\d{8}$/,
  NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/,
  PT: /^PT\d{9}$/,
  RO: /^RO\d{2,10}$/,
  SE: /^SE\d{10}01$/,
  SI: /^SI\d{8}$/,
  SK: /^SK\d{10}$/,
  // Northern Ireland traders keep EU VAT numbers with the XI prefix.
  XI: /^XI(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** The VAT prefix of an EU country (Greece uses EL), keyed by ISO country code. */
const EU_VAT_PREFIX: Record<string, string> = Object.fromEntries(
  Object.keys(EU_VAT).filter((p) => p !== "EL" && p !== "XI").map((p) => [p, p]),
);
EU_VAT_PREFIX.GR = "EL";

const euVat = (v: string) => {
  const re = EU_VAT[v.slice(0, 2)];
  return re !== undefined && re.test(v);
};

/** Every type of the contract's TaxIDFormat enum, with its format. */
export const TAX_ID_FORMATS: Record<string, RegExp | ((v: string) => boolean)> = {
  ad_nrt: /^[A-Z]-?\d{6}-?[A-Z]$/,
  ae_trn: /^\d{15}$/,
  ar_cuit: /^\d{2}-?\d{8}-?\d$/,
  au_abn: /^\d{11}$/,
  au_arn: /^\d{12}$/,
  bg_uic: /^(\d{9}|\d{13})$/,
  bh_vat: /^\d{15}$/,
  bo_tin: /^\d{7,12}$/,
  br_cnpj: /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/,
  br_cpf: /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/,
  ca_bn: /^\d{9}$/,
  ca_gst_hst: /^\d{9}RT\d{4}$/,
  ca_pst_bc: /^PST-?\d{4}-?\d{4}$/,
  ca_pst_mb: /^\d{6}-?\d$/,
  ca_pst_sk: /^\d{7}$/,
  ca_qst: /^\d{10}TQ\d{4}$/,
  ch_uid: /^CHE-?\d{3}\.?\d{3}\.?\d{3}(HR)?$/,
  ch_vat: /^CHE-?\d{3}\.?\d{3}\.?\d{3}(MWST|TVA|IVA)$/,
  cl_tin: /^\d{1,2}\.?\d{3}\.?\d{3}-?[\dK]$/,
  cn_tin: /^[0-9A-Z]{15,20}$/,
  co_nit: /^\d{3}\.?\d{3}\.?\d{3}-?\d$/,
  cr_tin: /^(\d-?\d{3}-?\d{6}|\d{10,12})$/,
  de_stn: /^(\d{10,13}|\d{2,3}\/\d{3,4}\/\d{4,5})$/,
  do_rcn: /^(\d{3}-?\d{7}-?\d|\d{9})$/,
  ec_ruc: /^\d{13}$/,
  eg_tin: /^\d{9}$/,
  es_cif: /^[A-Z]\d{7}[A-Z0-9]$/,
  eu_oss_vat: /^EU\d{9}$/,
  eu_vat: euVat,
  gb_vat: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  ge_vat: /^\d{9}$/,
  hk_br: /^\d{8}$/,
  hr_oib: /^\d{11}$/,
  hu_tin: /^\d{8}-?\d-?\d{2}$/,
  id_npwp: /^(\d{2}\.?\d{3}\.?\d{3}\.?\d-?\d{3}\.?\d{3}|\d{16})$/,
  il_vat: /^\d{9}$/,
  in_gst: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
  is_vat: /^\d{5,6}$/,
  jp_cn: /^\d{13}$/,
  jp_rn: /^\d{5}$/,
  jp_trn: /^T\d{13}$/,
  ke_pin: /^[AP]\d{9}[A-Z]$/,
  kr_brn: /^\d{3}-?\d{2}-?\d{5}$/,
  kz_bin: /^\d{12}$/,
  li_uid: /^CHE\d{9}$/,
  mx_rfc: /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/,
  my_frp: /^\d{8}$/,
  my_itn: /^[A-Z]{1,2}\d{10,11}$/,
  my_sst: /^[A-Z]\d{2}-?\d{4}-?\d{8}$/,
  ng_tin: /^\d{8}-?\d{4}$/,
  no_vat: /^\d{9}MVA$/,
  no_voec: /^\d{7}$/,
  nz_gst: /^\d{8,9}$/,
  om_vat: /^OM\d{10}$/,
  pe_ruc: /^\d{11}$/,
  ph_tin: /^\d{9,14}$/,
  ro_tin: /^\d{13}$/,
  rs_pib: /^\d{9}$/,
  ru_inn: /^(\d{10}|\d{12})$/,
  ru_kpp: /^\d{4}[0-9A-Z]{2}\d{3}$/,
  sa_vat: /^\d{15}$/,
  sg_gst: /^[A-Z]\d{8}[A-Z]$/,
  sg_uen: /^(\d{8,9}[A-Z]|[ST]\d{2}[A-Z]{2}\d{4}[A-Z])$/,
  si_tin: /^\d{8}$/,
  sv_nit: /^\d{4}-?\d{6}-?\d{3}-?\d$/,
  th_vat: /^\d{13}$/,
  tr_tin: /^\d{10}$/,
  tw_vat: /^\d{8}$/,
  ua_vat: /^\d{9,12}$/,
  us_ein: /^\d{2}-?\d{7}$/,
  uy_ruc: /^\d{12}$/,
  ve_rif: /^[JGVEP]-?\d{8}-?\d$/,
  vn_tin: /^\d{10}(-?\d{3})?$/,
  za_vat: /^4\d{9}$/,
};

/** Compact form: surrounding and inner whitespace removed, upper case. */
export function compactTaxId(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

function matches(type: string, value: string): boolean {
  const format = TAX_ID_FORMATS[type];
  if (format === undefined) return false;
  return typeof format === "function" ? format(value) : format.test(value);
}

/** Validates the API's [value, type] pair; a missing EU country prefix comes from the billing country. */
export function checkTaxIdPair(input: unknown, country: string | null, loc: (string | number)[] = ["body", "tax_id"]): TaxId {
  if (!Array.isArray(input) || input.length !== 2 || typeof input[0] !== "string" || typeof input[1] !== "string") {
    throw invalid(loc, "Tax ID must be a pair of the value and its type, e.g. [\"DE123456789\", \"eu_vat\"].", "value_error", input);
  }
  const [raw, type] = input as [string, string];
  if (!(type in TAX_ID_FORMATS)) throw invalid([...loc, 1], `Unknown tax ID type: ${type}.`, "enum", type);
  let value = compactTaxId(raw);
  if (type === "eu_vat" && !euVat(value) && country && EU_VAT_PREFIX[country]) value = EU_VAT_PREFIX[country] + value;
  if (!matches(type, value)) throw invalid(loc, `Invalid tax ID for the type ${type}.`, "value_error", raw);
  return [value, type];
}

/**
 * A tax id as the API takes it: the [value, type] pair, or the value alone, whose type is found
 * from the billing country (which is then required).
 */
export function checkTaxId(input: unknown, country: string | null, loc: (string | number)[] = ["body", "tax_id"]): TaxId {
  if (typeof input !== "string") return checkTaxIdPair(input, country, loc);
  if (country === null) throw invalid(["body", "billing_address"], "Country is required to validate tax ID.", "missing");
  return detectTaxId(input, country, loc);
}

/** The types that can apply in a country: its own ones, plus eu_vat inside the EU (GB has gb_vat). */
function typesOf(country: string): string[] {
  const prefix = country.toLowerCase() + "_";
  const own = Object.keys(TAX_ID_FORMATS).filter((t) => t.startsWith(prefix) && t !== "eu_vat" && t !== "eu_oss_vat");
  if (EU_VAT_PREFIX[country]) own.unshift("eu_vat");
  if (country === "LI") own.push("li_uid");
  return own;
}

/** Finds the type of a bare tax id value from the billing country (the portal's single-string form). */
export function detectTaxId(raw: string, country: string, loc: (string | number)[] = ["body", "tax_id"]): TaxId {
  const value = compactTaxId(raw);
  for (const type of typesOf(country)) {
    if (type === "eu_vat") {
      const prefixed = euVat(value) ? value : EU_VAT_PREFIX[country] + value;
      if (euVat(prefixed) && prefixed.startsWith(EU_VAT_PREFIX[country])) return [prefixed, type];
      continue;
    }
    if (matches(type, value)) return [value, type];
  }
  throw invalid(loc, "Invalid tax ID.", "value_error", raw);
}
