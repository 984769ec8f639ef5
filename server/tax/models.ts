// The tax domain's shapes: a seller's tax settings (the issue's `tax_settings`), the buyer, the
// lines to tax, and what a calculation answers, in Polar's vocabulary (TaxabilityReason, a rate
// with its display name, country and state).
import type { TaxIdCheck, TaxIdType } from "./tax-ids.js";

export type TaxProviderName = "builtin" | "stripe" | "none";

/** Where the seller collects: a country, a state or province, or the EU's OSS (`{country: "EU", scheme: "oss"}`). */
export interface TaxRegistration {
  country: string;
  state?: string | null;
  scheme?: string | null;
}

export interface TaxSettings {
  provider: TaxProviderName;
  origin_country: string;
  prices_include_tax: boolean;
  registrations: TaxRegistration[];
}

export type TaxCategory = "digital_service" | "ebook" | "saas" | "general";
export const TAX_CATEGORIES: readonly TaxCategory[] = ["digital_service", "ebook", "saas", "general"];

export interface TaxBuyer {
  country: string;
  state?: string | null;
  postal_code?: string | null;
  business: boolean;
  /** A tax id already checked (checkTaxId's result), or the pair [value, type] to check. */
  tax_id?: TaxIdCheck | [string, TaxIdType] | null;
  /** Exempt from tax (a certificate the seller holds). */
  exempt?: boolean;
}

export interface TaxLineInput {
  /** The line's amount in minor units: before tax, or with tax when prices include it. */
  amount: number;
  category?: TaxCategory;
  /** The caller's reference for the line (a price or line item id), echoed back. */
  reference?: string;
}

export interface TaxCalculationInput {
  settings: TaxSettings;
  buyer: TaxBuyer;
  currency: string;
  lines: TaxLineInput[];
  /** When the supply happens: its UTC calendar day picks the rates. */
  date: Date;
}

/** Polar's TaxabilityReason values. */
export type TaxabilityReason =
  "standard_rated" | "reverse_charge" | "not_collecting" | "not_subject_to_tax" | "not_supported" | "product_exempt" | "customer_exempt";

export interface TaxJurisdiction {
  country: string;
  state: string | null;
  /** "VAT 20% (France)", "GST 5% + QST 9.975% (Quebec)", "Reverse charge". */
  display_name: string;
}

/** One tax of a line (Canada charges GST and a provincial tax side by side). */
export interface TaxComponent {
  /** "VAT", "GST", "HST", "PST", "QST", "MVA", "JCT", "VSK". */
  tax: string;
  /** Thousandths of a percent: 20000 = 20%. */
  rate_pcm: number;
  /** Polar's rate unit; exact except for Quebec's QST (9.975% shows as 998). */
  basis_points: number;
  amount: number;
  jurisdiction: TaxJurisdiction;
}

export interface TaxLine {
  reference: string | null;
  category: TaxCategory;
  /** The line's amount as given. */
  amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  rate_pcm: number;
  basis_points: number;
  taxability_reason: TaxabilityReason;
  /** Whose tax it is; null when none is collected. */
  jurisdiction: TaxJurisdiction | null;
  components: TaxComponent[];
}

export interface TaxCalculation {
  provider: TaxProviderName;
  /** The provider's id of the calculation (Stripe's); null for the built-in calculator. */
  processor_id: string | null;
  currency: string;
  /** The UTC day whose rates were used. */
  date: string;
  prices_include_tax: boolean;
  lines: TaxLine[];
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  /** The order's reason: standard_rated when any line is taxed, else the first line's. */
  taxability_reason: TaxabilityReason | null;
  /** The jurisdiction of the order's taxed lines (the first one's), null when none is taxed. */
  jurisdiction: TaxJurisdiction | null;
}
