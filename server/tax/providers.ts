// The tax provider an organization's settings name: the built-in calculator (which also answers
// `none`, collecting nothing), or Stripe Tax with the process's STRIPE_SECRET_KEY.
import { setting } from "../config.js";
import { TaxError } from "./errors.js";
import type { TaxProviderName } from "./models.js";
import { builtinTaxProvider, type StripeTaxConfig, type TaxProvider } from "./provider.js";
import { StripeTaxProvider } from "./stripe.js";

let replacedStripe: StripeTaxConfig | null = null;

/** Stripe Tax's configuration: the one set by setStripeTaxConfig, else from the settings; null without STRIPE_SECRET_KEY. */
export function stripeTaxConfig(): StripeTaxConfig | null {
  if (replacedStripe !== null) return replacedStripe;
  const secretKey = setting("STRIPE_SECRET_KEY");
  return secretKey ? { secretKey } : null;
}

/** Replaces Stripe Tax's configuration for this process (tests point it at stripe-mock); null: back to the settings. */
export function setStripeTaxConfig(config: StripeTaxConfig | null): void {
  replacedStripe = config;
}

const stripeProviders = new Map<string, StripeTaxProvider>();

/** The provider for `name`; Stripe Tax's is made once per configuration (tests pass stripe-mock's). */
export function taxProvider(name: TaxProviderName, stripe: StripeTaxConfig | null = stripeTaxConfig()): TaxProvider {
  if (name !== "stripe") return builtinTaxProvider;
  if (stripe === null) throw new TaxError("not_configured", "The Stripe Tax provider needs STRIPE_SECRET_KEY.");
  const key = `${stripe.secretKey}\n${stripe.apiBase ?? ""}`;
  let provider = stripeProviders.get(key);
  if (provider === undefined) {
    provider = new StripeTaxProvider(stripe);
    stripeProviders.set(key, provider);
  }
  return provider;
}
