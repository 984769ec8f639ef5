// How a price reads: its amount type and a summary line per price.
import type { ProductPrice } from "../../api";
import { currencyDigits, formatMoney, humanize, perPeriod } from "../../common/format";

export const AMOUNT_TYPES = ["fixed", "custom", "free", "metered_unit"] as const;

export const AMOUNT_TYPE_NAMES: Record<string, string> = {
  fixed: "Fixed price",
  custom: "Pay what you want",
  free: "Free",
  metered_unit: "Metered (per unit)",
};

/** A metered unit price: a decimal number of minor units ("0.5" usd cents → $0.005). */
export function formatUnitAmount(unit: string | number, currency: string): string {
  const digits = currencyDigits(currency);
  const major = Number(unit) / 10 ** digits;
  try {
    return new Intl.NumberFormat(undefined, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, 12),
    }).format(major);
  } catch {
    return `${major} ${currency.toUpperCase()}`;
  }
}

export function priceText(p: ProductPrice, interval?: string | null, count?: number | null): string {
  const per = interval ? ` ${perPeriod(interval, count)}` : "";
  switch (p.amount_type) {
    case "fixed":
      return p.price_amount === 0 ? "Free" : `${formatMoney(p.price_amount, p.price_currency)}${per}`;
    case "custom": {
      const parts = [
        p.minimum_amount != null ? `min ${formatMoney(p.minimum_amount, p.price_currency)}` : null,
        p.preset_amount != null ? `suggested ${formatMoney(p.preset_amount, p.price_currency)}` : null,
      ].filter(Boolean);
      return `Pay what you want${parts.length ? ` (${parts.join(", ")})` : ""}${per}`;
    }
    case "metered_unit":
      return `${formatUnitAmount(p.unit_amount, p.price_currency)} per unit of ${p.meter?.name ?? "meter"}${p.cap_amount != null ? `, capped at ${formatMoney(p.cap_amount, p.price_currency)}` : ""}${per}`;
    default:
      return humanize((p as { amount_type?: string }).amount_type ?? "price");
  }
}
