// Tax ids: the format and checksum of every type of the contract's TaxIDFormat list, checked
// offline with kept libraries, not regexes of our own: stdnum, else validator's format patterns.
// A type neither checks is listed with the reason and accepted unchecked, which the result says.
// The API carries a tax id as Polar does, the pair [value, type]: ["FR40303265045", "eu_vat"].
import { stdnum, type Validator } from "stdnum";
import validator from "validator";
import type { components } from "../../generated/types.js";

export type TaxIdType = components["schemas"]["TaxIDFormat"];

export interface TaxIdCheck {
  type: TaxIdType;
  /** The compact form (separators removed, upper case; VAT numbers keep their country prefix). */
  value: string;
  /** ISO 3166-1 alpha-2 of the issuing country; null for the EU's non-Union OSS numbers. */
  country: string | null;
  /** True when the format and checksum were checked (and passed or failed); false for unchecked types. */
  checked: boolean;
  valid: boolean;
  /** Why it is invalid, or why it could not be checked. */
  reason: string | null;
}

/**
 * How a type is checked: by any of its stdnum validators (with the prefix stdnum strips from the
 * compact value, "GB"), per EU member state by prefix, by validator's format for a country stdnum
 * has no module for (isVAT's pattern: the form, no checksum), or not at all (the reason none can).
 */
type Spec =
  | Validator[]
  | { validators: Validator[]; prefix: string }
  | { memberStates: Record<string, Validator> }
  | { format: validator.VATCountryCode }
  | string;

/** EU VAT numbers by their prefix (Greece's is EL; XI is Northern Ireland's, a UK VAT number). */
const EU_VAT: Record<string, Validator> = {
  AT: stdnum.AT.uid,
  BE: stdnum.BE.vat,
  BG: stdnum.BG.vat,
  CY: stdnum.CY.vat,
  CZ: stdnum.CZ.dic,
  DE: stdnum.DE.vat,
  DK: stdnum.DK.cvr,
  EE: stdnum.EE.kmkr,
  EL: stdnum.GR.vat,
  ES: stdnum.ES.nif,
  FI: stdnum.FI.alv,
  FR: stdnum.FR.tva,
  HR: stdnum.HR.oib,
  HU: stdnum.HU.anum,
  IE: stdnum.IE.vat,
  IT: stdnum.IT.iva,
  LT: stdnum.LT.pvm,
  LU: stdnum.LU.tva,
  LV: stdnum.LV.pvn,
  MT: stdnum.MT.vat,
  NL: stdnum.NL.btw,
  PL: stdnum.PL.nip,
  PT: stdnum.PT.nif,
  RO: stdnum.RO.cif,
  SE: stdnum.SE.vat,
  SI: stdnum.SI.ddv,
  SK: stdnum.SK.dph,
  XI: stdnum.GB.vat,
};

/** Every type of the contract's TaxIDFormat enum: how it is checked, or why no library here can. */
export const TAX_ID_TYPES: Record<TaxIdType, Spec> = {
  ad_nrt: [stdnum.AD.nrt],
  ae_trn: "neither stdnum nor validator has a United Arab Emirates check",
  ar_cuit: [stdnum.AR.cuit],
  au_abn: [stdnum.AU.abn],
  au_arn: "the ATO reference number has no public checksum; validator's AU pattern is the ABN's",
  bg_uic: "stdnum's BG VAT check takes 9 digits, validator's BG pattern 9 or 10; a UIC may have 13",
  bh_vat: "neither stdnum nor validator has a Bahrain check",
  bo_tin: "stdnum's Bolivia module checks identity cards only; validator's BO pattern refuses Stripe's example",
  br_cnpj: [stdnum.BR.cnpj],
  br_cpf: [stdnum.BR.cpf],
  ca_bn: [stdnum.CA.bn],
  ca_gst_hst: [stdnum.CA.gst],
  ca_pst_bc: [stdnum.CA.pst],
  ca_pst_mb: "stdnum's PST check is British Columbia's; validator's CA pattern is the BN's",
  ca_pst_sk: "stdnum's PST check is British Columbia's; validator's CA pattern is the BN's",
  ca_qst: [stdnum.CA.qst],
  ch_uid: [stdnum.CH.uid],
  ch_vat: [stdnum.CH.vat],
  cl_tin: [stdnum.CL.rut],
  cn_tin: [stdnum.CN.uscc],
  co_nit: [stdnum.CO.nit],
  cr_tin: [stdnum.CR.cpj, stdnum.CR.cpf, stdnum.CR.cr],
  de_stn: [stdnum.DE.stnr],
  do_rcn: [stdnum.DO.rnc],
  ec_ruc: [stdnum.EC.ruc],
  eg_tin: [stdnum.EG.tn],
  es_cif: [stdnum.ES.cif],
  eu_oss_vat: "the EU's non-Union OSS numbers have no published checksum",
  eu_vat: { memberStates: EU_VAT },
  gb_vat: { validators: [stdnum.GB.vat], prefix: "GB" },
  ge_vat: "neither stdnum nor validator has a Georgia check",
  hk_br: "stdnum's Hong Kong module checks identity cards only; validator has no HK pattern",
  hr_oib: [stdnum.HR.oib],
  hu_tin: "stdnum and validator check the 8-digit EU VAT number, not the 11-digit tax number",
  id_npwp: [stdnum.ID.npwp],
  il_vat: [stdnum.IL.hp, stdnum.IL.idnr],
  in_gst: [stdnum.IN.gstin],
  is_vat: [stdnum.IS.vsk],
  jp_cn: [stdnum.JP.cn],
  jp_rn: "registered foreign businesses' numbers have no public checksum",
  jp_trn: "an individual's T-number is not a corporate number",
  ke_pin: [stdnum.KE.pin],
  kr_brn: [stdnum.KR.brn],
  kz_bin: { format: "KZ" },
  li_uid: [stdnum.CH.uid],
  mx_rfc: [stdnum.MX.rfc],
  my_frp: "stdnum's Malaysia module checks identity cards only; validator has no MY pattern",
  my_itn: "stdnum's Malaysia module checks identity cards only; validator has no MY pattern",
  my_sst: "stdnum's Malaysia module checks identity cards only; validator has no MY pattern",
  ng_tin: { format: "NG" },
  no_vat: [stdnum.NO.mva],
  no_voec: "VOEC numbers have no public checksum; validator's NO pattern is the MVA number's",
  nz_gst: [stdnum.NZ.ird],
  om_vat: "neither stdnum nor validator has an Oman check",
  pe_ruc: [stdnum.PE.ruc],
  ph_tin: { format: "PH" },
  ro_tin: [stdnum.RO.cnp],
  rs_pib: [stdnum.RS.pib],
  ru_inn: [stdnum.RU.inn],
  ru_kpp: "a KPP has no checksum; validator's RU pattern is the INN's",
  sa_vat: { format: "SA" },
  sg_gst: "a GST number is a UEN or an M-number; stdnum checks UENs only, validator has no SG pattern",
  sg_uen: [stdnum.SG.uen],
  si_tin: [stdnum.SI.ddv],
  sv_nit: [stdnum.SV.nit],
  th_vat: [stdnum.TH.tin],
  tr_tin: [stdnum.TR.vkn],
  tw_vat: [stdnum.TW.ubn],
  ua_vat: "stdnum checks EDRPOU and RNTRC, not the VAT payer number; validator's UA pattern refuses Stripe's example",
  us_ein: [stdnum.US.ein],
  uy_ruc: [stdnum.UY.rut],
  ve_rif: [stdnum.VE.rif],
  vn_tin: [stdnum.VN.mst],
  za_vat: [stdnum.ZA.vat],
};

const COUNTRY_OF_PREFIX: Record<string, string> = { EL: "GR", XI: "GB" };

/** The issuing country: the type's own prefix ("gb_vat"), an EU VAT number's prefix, none for OSS numbers. */
function countryOf(type: TaxIdType, value: string): string | null {
  if (type === "eu_oss_vat") return null;
  if (type !== "eu_vat") return type.slice(0, 2).toUpperCase();
  const prefix = value.slice(0, 2);
  return COUNTRY_OF_PREFIX[prefix] ?? (EU_VAT[prefix] === undefined ? null : prefix);
}

/** The VAT prefix of an EU country, by ISO code (Greece's is EL). */
function vatPrefix(country: string): string | undefined {
  if (country === "GR") return "EL";
  return EU_VAT[country] !== undefined && country !== "XI" && country !== "EL" ? country : undefined;
}

export function isTaxIdType(type: string): type is TaxIdType {
  return Object.hasOwn(TAX_ID_TYPES, type);
}

/** The reason a type is not checked, or null when it is. */
export function uncheckedReason(type: TaxIdType): string | null {
  const spec = TAX_ID_TYPES[type];
  return typeof spec === "string" ? `no library here checks this number (${spec})` : null;
}

/** Whitespace, dots, dashes and slashes removed, upper case: the form an unchecked type keeps. */
function squeeze(value: string): string {
  return value.replace(/[\s.\-/]+/g, "").toUpperCase();
}

function result(type: TaxIdType, value: string, valid: boolean, reason: string | null, checked = true): TaxIdCheck {
  return { type, value, country: countryOf(type, value), checked, valid, reason };
}

/** A type checked by its form alone: the compact value, less the country prefix the form allows. */
function checkFormat(raw: string, type: TaxIdType, country: validator.VATCountryCode): TaxIdCheck {
  const value = squeeze(raw);
  if (!validator.isVAT(value, country)) return result(type, value, false, "The tax ID does not have the form of its type.");
  return result(type, value.startsWith(country) ? value.slice(country.length) : value, true, null);
}

function checkEuVat(raw: string, countryHint: string | null): TaxIdCheck {
  let value = squeeze(raw);
  const hinted = countryHint ? vatPrefix(countryHint) : undefined;
  if (!/^[A-Z]{2}/.test(value) && hinted) value = hinted + value;
  const prefix = value.slice(0, 2);
  const validator = EU_VAT[prefix];
  if (validator === undefined) return result("eu_vat", value, false, `"${prefix}" is not an EU VAT prefix.`);
  const checked = validator.validate(value.slice(2));
  return checked.isValid ? result("eu_vat", prefix + checked.compact, true, null) : result("eu_vat", value, false, checked.error.message);
}

/**
 * Checks a tax id of the given type. `countryHint` (the billing country) supplies the prefix of
 * an EU VAT number given without it.
 */
export function checkTaxId(raw: string, type: TaxIdType, countryHint: string | null = null): TaxIdCheck {
  const spec = TAX_ID_TYPES[type];
  if (typeof spec === "string") {
    const value = squeeze(raw);
    return value.length > 0
      ? result(type, value, true, uncheckedReason(type), false)
      : result(type, value, false, "The tax ID is empty.", false);
  }
  if ("memberStates" in spec) return checkEuVat(raw, countryHint);
  if ("format" in spec) return checkFormat(raw, type, spec.format);
  const { validators, prefix } = Array.isArray(spec) ? { validators: spec, prefix: "" } : spec;
  let error = "The tax ID is invalid.";
  for (const validator of validators) {
    const checked = validator.validate(raw);
    if (checked.isValid) return result(type, checked.compact.startsWith(prefix) ? checked.compact : prefix + checked.compact, true, null);
    error = checked.error.message;
  }
  return result(type, squeeze(raw), false, error);
}

/** The types a bare value may be in a country: eu_vat in a member state, the country's own types, li_uid in Liechtenstein. */
function typesOf(country: string): TaxIdType[] {
  const own = (Object.keys(TAX_ID_TYPES) as TaxIdType[]).filter((t) => t.startsWith(`${country.toLowerCase()}_`));
  if (vatPrefix(country) !== undefined) own.unshift("eu_vat");
  if (country === "LI") own.push("li_uid");
  // An unchecked type accepts any value: it is tried only in a country with no checked one. A tax
  // registration number answers before a business number that may contain it (ca_gst_hst, ca_bn).
  const checked = own.filter((t) => uncheckedReason(t) === null);
  const rank = (t: TaxIdType) => (/vat|gst|qst|pst/.test(t) ? 0 : 1);
  return checked.length ? checked.sort((a, b) => rank(a) - rank(b)) : own;
}

/**
 * Finds the type of a bare tax id from the billing country (the portal's and the hosted
 * checkout's single-string form): the first of the country's types it is valid as, or null. An
 * EU VAT number given with its prefix must carry the country's own.
 */
export function detectTaxId(raw: string, country: string): TaxIdCheck | null {
  for (const type of typesOf(country.toUpperCase())) {
    const checked = checkTaxId(raw, type, country.toUpperCase());
    if (!checked.valid) continue;
    if (type === "eu_vat" && checked.value.slice(0, 2) !== vatPrefix(country.toUpperCase())) continue;
    return checked;
  }
  return null;
}
