// The Stripe Tax provider against stripe-mock, through a recorder that keeps what we send: the
// calculation's lines (amount, tax behavior, tax code), the buyer (address, tax id, exemption) and
// our idempotency keys; what stripe-mock answers (its fixed sample: one US line of 1499 with 148 of
// tax at 9.875%) mapped into our shapes; and Stripe's errors as TaxErrors.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TaxError } from "../../server/tax/errors.js";
import type { TaxCalculation, TaxCalculationInput } from "../../server/tax/models.js";
import { builtinTaxProvider } from "../../server/tax/provider.js";
import { stripeTaxConfig, taxProvider } from "../../server/tax/providers.js";
import { pcmOfPercentage, StripeTaxProvider, stripeTaxCode } from "../../server/tax/stripe.js";
import { startStripeMock } from "../processors/stripe-mock.js";
import { startStripeRecorder } from "./stripe-recorder.js";

const DE_VAT = "DE136695976";

const input = (over: Partial<TaxCalculationInput> = {}): TaxCalculationInput => ({
  settings: { provider: "stripe", origin_country: "FR", prices_include_tax: false, registrations: [] },
  buyer: { country: "DE", postal_code: "10115", business: true, tax_id: [DE_VAT, "eu_vat"] },
  currency: "EUR",
  lines: [{ amount: 10000, category: "saas", reference: "price-1" }],
  date: new Date("2025-09-15T12:00:00Z"),
  ...over,
});

/** What stripe-mock's sample calculation becomes for a line we sent as `price-1` (saas). */
const SAMPLE_JURISDICTION = { country: "US", state: "CA", display_name: "Sales tax 9.875% (CA, United States)" };

async function rejection(promise: Promise<unknown>): Promise<TaxError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TaxError);
  return err instanceof TaxError ? err : new TaxError("provider_error", "not a TaxError");
}

describe("Stripe Tax provider against stripe-mock", () => {
  let mock: Awaited<ReturnType<typeof startStripeMock>>;
  let recorder: Awaited<ReturnType<typeof startStripeRecorder>>;
  let stripe: StripeTaxProvider;
  const sent = () => recorder.requests.splice(0);

  beforeAll(async () => {
    mock = await startStripeMock();
    recorder = await startStripeRecorder(mock.port);
    stripe = new StripeTaxProvider({ secretKey: "sk_test_borealis", apiBase: `http://127.0.0.1:${recorder.port}` });
  });
  afterEach(() => {
    recorder.failWith(null);
    sent();
  });
  afterAll(async () => {
    await recorder?.stop();
    mock?.stop();
  });

  it("sends the lines, the billing address and a checked VAT id, and maps the answer per line", async () => {
    const calculation = await stripe.calculate(input());
    const [request] = sent();
    expect(request).toMatchObject({ method: "POST", path: "/v1/tax/calculations" });
    expect(Object.fromEntries(request.form)).toEqual({
      currency: "eur",
      "line_items[0][amount]": "10000",
      "line_items[0][reference]": "price-1",
      "line_items[0][tax_behavior]": "exclusive",
      "line_items[0][tax_code]": "txcd_10103001",
      "customer_details[address][country]": "DE",
      "customer_details[address][postal_code]": "10115",
      "customer_details[address_source]": "billing",
      "customer_details[tax_ids][0][type]": "eu_vat",
      "customer_details[tax_ids][0][value]": DE_VAT,
      "expand[0]": "line_items.data.tax_breakdown",
    });
    // stripe-mock answers its sample line without a breakdown of its own: the calculation's is the single line's.
    expect(calculation).toEqual({
      provider: "stripe",
      processor_id: expect.stringMatching(/^taxcalc_/),
      currency: "eur",
      date: "2009-02-13",
      prices_include_tax: false,
      lines: [
        {
          reference: "price-1",
          category: "saas",
          amount: 1499,
          net_amount: 1499,
          tax_amount: 148,
          total_amount: 1647,
          rate_pcm: 9875,
          basis_points: 988,
          taxability_reason: "standard_rated",
          jurisdiction: SAMPLE_JURISDICTION,
          components: [{ tax: "Sales tax", rate_pcm: 9875, basis_points: 988, amount: 148, jurisdiction: SAMPLE_JURISDICTION }],
        },
      ],
      net_amount: 1499,
      tax_amount: 148,
      total_amount: 1647,
      taxability_reason: "standard_rated",
      jurisdiction: SAMPLE_JURISDICTION,
    });
  });

  it("sends inclusive prices, an exempt buyer's override, and no tax id that fails its check", async () => {
    await stripe.calculate(
      input({
        settings: { provider: "stripe", origin_country: "FR", prices_include_tax: true, registrations: [] },
        buyer: { country: "fr", state: null, business: true, tax_id: ["FR00000000000", "eu_vat"], exempt: true },
        lines: [{ amount: 1200, category: "ebook" }],
      }),
    );
    const form = Object.fromEntries(sent()[0].form);
    expect(form).toMatchObject({
      "line_items[0][amount]": "1200",
      "line_items[0][reference]": "line-1",
      "line_items[0][tax_behavior]": "inclusive",
      "line_items[0][tax_code]": "txcd_10302000",
      "customer_details[address][country]": "FR",
      "customer_details[taxability_override]": "customer_exempt",
    });
    expect(Object.keys(form).filter((k) => k.includes("tax_ids") || k.includes("[state]") || k.includes("postal_code"))).toEqual([]);
  });

  it("sends each category's tax code under a unique reference, and refuses an answer that lost lines", async () => {
    const lines = [
      { amount: 100, reference: "p" },
      { amount: 200, category: "general" as const, reference: "p" },
      { amount: 300, category: "saas" as const },
      { amount: 400, category: "ebook" as const },
    ];
    const err = await rejection(
      stripe.calculate(input({ buyer: { country: "US", state: "CA", postal_code: "94080", business: false }, lines })),
    );
    // stripe-mock answers one sample line whatever it is sent.
    expect(err).toMatchObject({ code: "provider_error", message: "Stripe Tax answered 1 line(s) for the 4 sent.", retryable: false });
    const form = sent()[0].form;
    expect(
      [0, 1, 2, 3].map((i) => [
        form.get(`line_items[${i}][reference]`),
        form.get(`line_items[${i}][tax_code]`),
        form.get(`line_items[${i}][amount]`),
      ]),
    ).toEqual([
      ["p", "txcd_10000000", "100"],
      ["p#2", "txcd_20030000", "200"],
      ["line-3", "txcd_10103000", "300"],
      ["line-4", "txcd_10302000", "400"],
    ]);
    expect(form.get("customer_details[address][state]")).toBe("CA");
    expect(form.get("customer_details[tax_ids][0][type]")).toBeNull();
  });

  it("computes nothing for another provider's settings, and sends nothing for bad input", async () => {
    expect(
      await rejection(
        stripe.calculate(input({ settings: { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [] } })),
      ),
    ).toMatchObject({ code: "wrong_provider" });
    expect(await rejection(stripe.calculate(input({ lines: [] })))).toMatchObject({ code: "invalid_input" });
    expect(await rejection(stripe.calculate(input({ lines: [{ amount: 10.5 }] })))).toMatchObject({ code: "invalid_input" });
    expect(sent()).toEqual([]);
  });

  describe("record and revert", () => {
    let calculation: TaxCalculation;
    beforeAll(async () => {
      calculation = await stripe.calculate(input());
      sent();
    });

    it("records the calculation under the order, with the order's idempotency key on every try", async () => {
      const transaction = await stripe.record(calculation, "order-1");
      expect(transaction).toEqual({ provider: "stripe", id: expect.stringMatching(/^tax_/), reference: "order-1", calculation });
      await stripe.record(calculation, "order-1");
      const requests = sent();
      expect(requests).toHaveLength(2);
      for (const r of requests) {
        expect(r).toMatchObject({
          method: "POST",
          path: "/v1/tax/transactions/create_from_calculation",
          idempotencyKey: "tax-record:order-1",
        });
        expect(Object.fromEntries(r.form)).toEqual({ calculation: calculation.processor_id, reference: "order-1" });
      }
    });

    it("records only a Stripe calculation", async () => {
      const builtin = await builtinTaxProvider.calculate({
        ...input(),
        settings: { provider: "builtin", origin_country: "FR", prices_include_tax: false, registrations: [{ country: "DE" }] },
      });
      expect(await rejection(stripe.record(builtin, "order-2"))).toMatchObject({ code: "wrong_provider" });
      expect(sent()).toEqual([]);
    });

    it("reverses a whole transaction with mode full", async () => {
      const transaction = await stripe.record(calculation, "order-3");
      sent();
      const reversal = await stripe.revert(transaction, "refund-3");
      const [request] = sent();
      expect(request).toMatchObject({
        method: "POST",
        path: "/v1/tax/transactions/create_reversal",
        idempotencyKey: "tax-revert:refund-3",
      });
      expect(Object.fromEntries(request.form)).toEqual({ original_transaction: transaction.id, reference: "refund-3", mode: "full" });
      expect(reversal).toEqual({
        provider: "stripe",
        id: expect.stringMatching(/^tax_/),
        transaction_id: transaction.id,
        reference: "refund-3",
        total_amount: 1647,
        tax_amount: 148,
        lines: [{ reference: "price-1", total_amount: 1647, tax_amount: 148 }],
      });
      expect(reversal.id).not.toBe(transaction.id);
    });

    it("reverses a refund's share per line of the recorded transaction with mode partial", async () => {
      const transaction = await stripe.record(calculation, "order-4");
      sent();
      // 148 × 823 / 1647 = 73.95…: 74 of tax, 749 before it.
      const reversal = await stripe.revert(transaction, "refund-4", { total_amount: 823 });
      const [lines, request] = sent();
      expect(lines).toMatchObject({ method: "GET", path: `/v1/tax/transactions/${transaction.id}/line_items` });
      expect(request).toMatchObject({ path: "/v1/tax/transactions/create_reversal", idempotencyKey: "tax-revert:refund-4" });
      expect(Object.fromEntries(request.form)).toEqual({
        original_transaction: transaction.id,
        reference: "refund-4",
        mode: "partial",
        // stripe-mock's sample transaction line.
        "line_items[0][original_line_item]": "tax_li_QXhWXb3MbhgP1Q",
        "line_items[0][reference]": "Pepperoni Pizza",
        "line_items[0][amount]": "-749",
        "line_items[0][amount_tax]": "-74",
      });
      expect(reversal).toMatchObject({
        id: expect.stringMatching(/^tax_/),
        total_amount: 823,
        tax_amount: 74,
        lines: [{ reference: "price-1", total_amount: 823, tax_amount: 74 }],
      });
    });

    it("sends nothing for a refund that hands nothing back, and refuses one larger than the order", async () => {
      const transaction = await stripe.record(calculation, "order-5");
      sent();
      expect(await stripe.revert(transaction, "refund-5", { total_amount: 0 })).toMatchObject({ total_amount: 0, tax_amount: 0 });
      expect(sent().map((r) => r.method)).toEqual(["GET"]);
      expect(await rejection(stripe.revert(transaction, "refund-6", { total_amount: 1648 }))).toMatchObject({ code: "invalid_input" });
      expect(await rejection(stripe.revert({ ...transaction, provider: "builtin" }, "refund-7"))).toMatchObject({ code: "wrong_provider" });
      expect(sent()).toEqual([]);
    });

    it("keeps the idempotency key on Stripe's retries while it is down, then fails retryable", async () => {
      recorder.failWith({ status: 503, error: { type: "api_error", message: "Stripe is down." } });
      const err = await rejection(stripe.record(calculation, "order-6"));
      expect(err).toMatchObject({ code: "provider_unavailable", retryable: true });
      const requests = sent();
      expect(requests.length).toBeGreaterThan(1);
      expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set(["tax-record:order-6"]));
    }, 20_000);
  });

  describe("Stripe's errors", () => {
    it("an address Stripe cannot place is the buyer's to fix", async () => {
      recorder.failWith({
        status: 400,
        error: {
          type: "invalid_request_error",
          code: "customer_tax_location_invalid",
          param: "customer_details[address]",
          message: "We could not determine the customer's tax location.",
        },
      });
      const err = await rejection(stripe.calculate(input()));
      expect(err).toMatchObject({ code: "location_invalid", retryable: false });
      expect(err.message).toContain("check its country, state and postal code");
    });

    it("a tax id Stripe refuses is bad input", async () => {
      recorder.failWith({
        status: 400,
        error: { type: "invalid_request_error", code: "tax_id_invalid", message: "Invalid value for eu_vat." },
      });
      expect(await rejection(stripe.calculate(input()))).toMatchObject({ code: "invalid_input", retryable: false });
    });

    it("a key stripe-mock refuses is ours, not retried", async () => {
      const badKey = new StripeTaxProvider({ secretKey: "not-a-key", apiBase: `http://127.0.0.1:${recorder.port}` });
      const err = await rejection(badKey.calculate(input()));
      expect(err).toMatchObject({ code: "provider_error", retryable: false });
      expect(err.message).toContain("Please authenticate");
    });

    it("Stripe out of reach is retryable", async () => {
      const closed = await startStripeRecorder(mock.port);
      await closed.stop();
      const unreachable = new StripeTaxProvider({ secretKey: "sk_test_borealis", apiBase: `http://127.0.0.1:${closed.port}` });
      expect(await rejection(unreachable.calculate(input()))).toMatchObject({ code: "provider_unavailable", retryable: true });
    }, 20_000);
  });
});

describe("Stripe Tax's mapping helpers", () => {
  it("maps each category to Stripe's tax code, SaaS by business or personal use", () => {
    expect(stripeTaxCode("digital_service", false)).toBe("txcd_10000000");
    expect(stripeTaxCode("ebook", true)).toBe("txcd_10302000");
    expect(stripeTaxCode("saas", true)).toBe("txcd_10103001");
    expect(stripeTaxCode("saas", false)).toBe("txcd_10103000");
    expect(stripeTaxCode("general", false)).toBe("txcd_20030000");
  });

  it("reads Stripe's percentages exactly as pcm", () => {
    expect(["20.0", "9.975", "8.1", "0.0", "7.2500", "6.0625"].map(pcmOfPercentage)).toEqual([20000, 9975, 8100, 0, 7250, 6063]);
    expect(() => pcmOfPercentage("n/a")).toThrow(TaxError);
  });
});

describe("tax provider factory", () => {
  afterEach(() => void vi.unstubAllEnvs());

  it("answers the built-in provider for builtin and none", () => {
    expect(taxProvider("builtin", null)).toBe(builtinTaxProvider);
    expect(taxProvider("none", null)).toBe(builtinTaxProvider);
  });

  it("makes Stripe Tax from STRIPE_SECRET_KEY, once, and refuses without it", async () => {
    vi.stubEnv("STRIPE_SECRET_KEY", "sk_test_factory");
    expect(stripeTaxConfig()).toEqual({ secretKey: "sk_test_factory" });
    const provider = taxProvider("stripe");
    expect(provider).toBeInstanceOf(StripeTaxProvider);
    expect(taxProvider("stripe")).toBe(provider);
    vi.stubEnv("STRIPE_SECRET_KEY", "");
    expect(stripeTaxConfig()).toBeNull();
    expect(await rejection(Promise.resolve().then(() => taxProvider("stripe")))).toMatchObject({ code: "not_configured" });
  });
});
