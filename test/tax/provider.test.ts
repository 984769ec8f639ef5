// The built-in provider behind the calculate / record / revert port: what record and revert
// answer for a later caller to store, and a refund's proportional share of the tax.
import { describe, expect, it } from "vitest";
import { TaxError } from "../../server/tax/errors.js";
import type { TaxCalculationInput } from "../../server/tax/models.js";
import { builtinTaxProvider, type TaxProvider } from "../../server/tax/provider.js";

const input: TaxCalculationInput = {
  settings: {
    provider: "builtin",
    origin_country: "FR",
    prices_include_tax: false,
    registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }],
  },
  buyer: { country: "DE", business: false },
  currency: "eur",
  lines: [
    { amount: 10000, reference: "saas" },
    { amount: 5000, category: "ebook", reference: "book" },
  ],
  date: new Date("2025-09-15T12:00:00Z"),
};

describe("built-in tax provider", () => {
  const provider: TaxProvider = builtinTaxProvider;

  it("calculates, records the calculation under the order, and reverses it whole", async () => {
    const calculation = await provider.calculate(input);
    expect(calculation).toMatchObject({
      provider: "builtin",
      processor_id: null,
      net_amount: 15000,
      tax_amount: 2250,
      total_amount: 17250,
    });
    const transaction = await provider.record(calculation, "order-1");
    expect(transaction).toEqual({ provider: "builtin", id: "builtin:order-1", reference: "order-1", calculation });
    const reversal = await provider.revert(transaction, "refund-1");
    expect(reversal).toEqual({
      provider: "builtin",
      id: "builtin:order-1:reversal:refund-1",
      transaction_id: "builtin:order-1",
      reference: "refund-1",
      total_amount: 17250,
      tax_amount: 2250,
      lines: [
        { reference: "saas", total_amount: 11900, tax_amount: 1900 },
        { reference: "book", total_amount: 5350, tax_amount: 350 },
      ],
    });
  });

  it("hands back a partial refund's tax in proportion to the order's", async () => {
    const transaction = await provider.record(await provider.calculate(input), "order-2");
    // 2250 × 5000 / 17250 = 652.17…; the lines share it as they share the tax.
    const partial = await provider.revert(transaction, "refund-2", { total_amount: 5000 });
    expect(partial).toMatchObject({ total_amount: 5000, tax_amount: 652 });
    expect(partial.lines).toEqual([
      { reference: "saas", total_amount: 3449, tax_amount: 551 },
      { reference: "book", total_amount: 1551, tax_amount: 101 },
    ]);
    const told = await provider.revert(transaction, "refund-3", { total_amount: 5000, tax_amount: 600 });
    expect(told.tax_amount).toBe(600);
  });

  it("refuses a refund larger than the order, or tax larger than the order's", async () => {
    const transaction = await provider.record(await provider.calculate(input), "order-3");
    await expect(provider.revert(transaction, "r", { total_amount: 17251 })).rejects.toBeInstanceOf(TaxError);
    await expect(provider.revert(transaction, "r", { total_amount: 1000, tax_amount: 2251 })).rejects.toBeInstanceOf(TaxError);
    await expect(provider.revert(transaction, "r", { total_amount: 100, tax_amount: 101 })).rejects.toBeInstanceOf(TaxError);
  });

  it("collects nothing under the provider none", async () => {
    const calculation = await provider.calculate(
      Object.assign({}, input, { settings: Object.assign({}, input.settings, { provider: "none" }) }),
    );
    expect(calculation).toMatchObject({ provider: "none", tax_amount: 0, total_amount: 15000, taxability_reason: "not_collecting" });
  });
});
