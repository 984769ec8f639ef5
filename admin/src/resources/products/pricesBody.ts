// Prices: how one reads (a summary line per price) and how the editor writes them. A product's
// prices are fixed (a fixed price of 0 is free), pay what you want or metered; the editor offers
// "Free" apart, sent as a free price the server stores as fixed 0. An existing price is never
// changed in place: the update keeps it by id, or drops it (the server archives it), and new
// prices are added beside.
type PriceRow = Record<string, unknown> & { id?: string; amount_type?: string };

/** The form's price rows as the create / update body wants them. */
export function pricesBody(rows: PriceRow[] | undefined): Record<string, unknown>[] {
  return (rows ?? []).map((row) => {
    if (row.id) return { id: row.id };
    const currency = typeof row.price_currency === "string" && row.price_currency ? row.price_currency.toLowerCase() : "usd";
    switch (row.amount_type) {
      case "custom":
        return {
          amount_type: "custom",
          price_currency: currency,
          minimum_amount: row.minimum_amount ?? null,
          maximum_amount: row.maximum_amount ?? null,
          preset_amount: row.preset_amount ?? null,
        };
      case "free":
        return { amount_type: "free" };
      case "metered_unit":
        return {
          amount_type: "metered_unit",
          price_currency: currency,
          meter_id: row.meter_id,
          unit_amount: row.unit_amount,
          cap_amount: row.cap_amount ?? null,
        };
      default:
        return { amount_type: "fixed", price_currency: currency, price_amount: row.price_amount };
    }
  });
}
