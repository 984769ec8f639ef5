// What the buyer is buying and what it costs, as the server computed it: the product, the price
// to choose when there are several, a pay-what-you-want amount, the discount code, and the
// totals (subtotal, discount, tax, total, per billing period for a subscription; with a free
// trial, nothing due today and the price from the trial's end).
import { useState } from "react";
import type { CheckoutProduct, CheckoutPublic, LegacyRecurringProductPrice, ProductPrice } from "../../../../generated/client/types.gen.js";
import { aria, Button, Field } from "../../ui/components.js";
import { formatDate, formatMoney, parseMajor, perInterval, toMajor, trialLength } from "../../ui/format.js";
import { CommitInput, useOptimistic } from "../../ui/inputs.js";
import type { CheckoutSession } from "./session.js";

type Price = ProductPrice | LegacyRecurringProductPrice;

const intervalOf = (product: CheckoutProduct, price: Price) => price.recurring_interval ?? product.recurring_interval ?? null;

export function priceLabel(product: CheckoutProduct, price: Price): string {
  const per = perInterval(intervalOf(product, price), product.recurring_interval_count);
  switch (price.amount_type) {
    case "fixed":
      return price.price_amount === 0 ? "Free" : `${formatMoney(price.price_amount, price.price_currency)}${per}`;
    case "custom":
      return price.minimum_amount
        ? `Pay what you want (from ${formatMoney(price.minimum_amount, price.price_currency)})${per}`
        : `Pay what you want${per}`;
    case "metered_unit":
      return `${formatMoney(Number(price.unit_amount), price.price_currency)} per ${price.meter.name} unit`;
    case "seat_based": {
      const lowest = Math.min(...price.seat_tiers.tiers.map((t) => t.price_per_seat));
      return `From ${formatMoney(lowest, price.price_currency)} per seat${per}`;
    }
  }
}

/** The product's priced choices (not metered, not archived), over every product of the checkout. */
function choices(checkout: CheckoutPublic) {
  return checkout.products.flatMap((product) =>
    product.prices.filter((p) => !p.is_archived && p.amount_type !== "metered_unit").map((price) => ({ product, price })),
  );
}

export function ProductSummary({ checkout }: { checkout: CheckoutPublic }) {
  const product = checkout.product;
  const media = product.medias[0];
  const metered = product.prices.filter((p) => p.amount_type === "metered_unit" && !p.is_archived);
  return (
    <section className="summary__product" aria-labelledby="product-name">
      {media ? <img className="summary__media" src={media.public_url} alt={product.name} /> : null}
      <h2 id="product-name">{product.name}</h2>
      {product.description ? <p className="summary__description">{product.description}</p> : null}
      {metered.length ? (
        <ul className="summary__metered" aria-label="Usage-based charges">
          {metered.map((p) => (
            <li key={p.id}>+ {priceLabel(product, p)}</li>
          ))}
        </ul>
      ) : null}
      {product.benefits.length ? (
        <div className="summary__benefits">
          <h3>Included</h3>
          <ul>
            {product.benefits.map((b) => (
              <li key={b.id}>{b.description}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

export function PriceChoice({ session }: { session: CheckoutSession }) {
  const { checkout, update, errors } = session;
  const [selected, setSelected] = useOptimistic(checkout.product_price_id);
  const options = choices(checkout);
  const priceError = errors.product_price_id ?? errors.product_id;
  if (options.length < 2) {
    // One price: nothing to choose, but a confirm refused over the price still says why, here.
    return priceError ? (
      <p className="field__error" role="alert">
        {priceError}
      </p>
    ) : null;
  }
  return (
    <fieldset className="group price-choice">
      <legend>Choose an option</legend>
      {options.map(({ product, price }) => {
        const id = `price-${price.id}`;
        return (
          <div key={price.id} className={`price-option${price.id === selected ? " price-option--selected" : ""}`}>
            <input
              type="radio"
              id={id}
              name="product_price_id"
              value={price.id}
              checked={price.id === selected}
              onChange={() => {
                setSelected(price.id);
                void update({ product_id: product.id, product_price_id: price.id }, ["product_price_id", "product_id"]);
              }}
            />
            <label htmlFor={id}>
              <span className="price-option__name">{product.name}</span>
              <span className="price-option__price">{priceLabel(product, price)}</span>
            </label>
          </div>
        );
      })}
      {priceError ? (
        <p className="field__error" role="alert">
          {priceError}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Pay what you want: the amount in major units, sent when the buyer leaves the field. */
export function CustomAmount({ session }: { session: CheckoutSession }) {
  const { checkout, update, errors } = session;
  const price = checkout.product_price;
  if (price.amount_type !== "custom") return null;
  const currency = price.price_currency;
  const bounds = [
    price.minimum_amount ? `at least ${formatMoney(price.minimum_amount, currency)}` : null,
    price.maximum_amount ? `at most ${formatMoney(price.maximum_amount, currency)}` : null,
  ].filter(Boolean);
  return (
    <Field
      label={`Name a fair price (${currency.toUpperCase()})`}
      required
      error={errors.amount}
      help={bounds.length ? `Pay ${bounds.join(" and ")}.` : undefined}
    >
      {(ids) => (
        <CommitInput
          {...aria(ids)}
          name="amount"
          inputMode="decimal"
          required
          value={toMajor(checkout.amount, currency)}
          onCommit={(v) => {
            const minor = parseMajor(v, currency);
            if (minor === null) session.setErrors((e) => ({ ...e, amount: "Enter an amount, like 12.50." }));
            else void update({ amount: minor }, ["amount"]);
          }}
        />
      )}
    </Field>
  );
}

export function DiscountCode({ session, onApplied }: { session: CheckoutSession; onApplied: (code: string | null) => void }) {
  const { checkout, update, errors } = session;
  const [code, setCode] = useState("");
  if (!checkout.allow_discount_codes || !checkout.is_discount_applicable) return null;
  const applied = checkout.discount;
  if (applied) {
    return (
      <>
        <div className="discount-applied" role="status">
          <span>
            Discount <strong>{applied.code ?? applied.name}</strong> applied
          </span>
          {applied.code ? (
            <Button
              kind="link"
              onClick={() => {
                onApplied(null);
                void update({ discount_code: null }, ["discount_code"]);
              }}
            >
              Remove
            </Button>
          ) : null}
        </div>
        {errors.discount_code ? (
          <p className="field__error" role="alert" data-testid="discount-error">
            {errors.discount_code}
          </p>
        ) : null}
      </>
    );
  }
  const apply = async () => {
    const trimmed = code.trim();
    if (!trimmed) {
      session.setErrors((e) => ({ ...e, discount_code: "Enter a discount code." }));
      return;
    }
    if (await update({ discount_code: trimmed }, ["discount_code"])) {
      onApplied(trimmed);
      setCode("");
    }
  };
  return (
    <Field label="Discount code" error={errors.discount_code}>
      {(ids) => (
        <div className="inline-form">
          <input
            {...aria(ids)}
            name="discount_code"
            autoComplete="off"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void apply();
              }
            }}
          />
          <Button onClick={() => void apply()}>Apply</Button>
        </div>
      )}
    </Field>
  );
}

function discountTerms(checkout: CheckoutPublic): string | null {
  const d = checkout.discount;
  if (!d || !checkout.product.recurring_interval) return null;
  if (d.duration === "forever") return "every period";
  if (d.duration === "once") return "first period only";
  return "duration_in_months" in d ? `for ${d.duration_in_months} month${d.duration_in_months === 1 ? "" : "s"}` : null;
}

/** "14-day free trial, then $45 / 3 months", when the checkout starts a trial. */
export function trialTerms(checkout: CheckoutPublic): string | null {
  const { active_trial_interval: interval, active_trial_interval_count: count } = checkout;
  if (!interval || !count || !checkout.trial_end) return null;
  const per = perInterval(checkout.product.recurring_interval, checkout.product.recurring_interval_count);
  return `${trialLength(interval, count)} free trial, then ${formatMoney(checkout.total_amount, checkout.currency)}${per}`;
}

/**
 * The tax line as the server computed it: its rate and jurisdiction ("VAT 20% (France)", "incl."
 * when the price includes it), "Reverse charge" with its legend, or none when nothing is collected.
 */
export function taxLine(checkout: CheckoutPublic): { label: string; legend: string | null } | null {
  if (checkout.taxability_reason === "reverse_charge") {
    return { label: "Reverse charge", legend: "Reverse charge: no VAT is charged; you account for the VAT in your own country." };
  }
  const rate = checkout.tax_rate;
  if (rate) return { label: checkout.tax_behavior === "inclusive" ? `incl. ${rate.display_name}` : rate.display_name, legend: null };
  return checkout.tax_amount ? { label: "Taxes", legend: null } : null;
}

export function Totals({ checkout, updating }: { checkout: CheckoutPublic; updating: boolean }) {
  const c = checkout.currency;
  const per = perInterval(checkout.product.recurring_interval, checkout.product.recurring_interval_count);
  const terms = discountTerms(checkout);
  const trial = trialTerms(checkout);
  const tax = taxLine(checkout);
  return (
    <>
      <dl className="totals" aria-busy={updating} aria-live="polite" aria-label="Order total">
        <div>
          <dt>Subtotal</dt>
          <dd data-testid="subtotal">{formatMoney(checkout.amount, c)}</dd>
        </div>
        {checkout.discount_amount ? (
          <div>
            <dt>
              Discount{checkout.discount?.code ? ` (${checkout.discount.code})` : ""}
              {terms ? <span className="totals__note"> {terms}</span> : null}
            </dt>
            <dd data-testid="discount">−{formatMoney(checkout.discount_amount, c)}</dd>
          </div>
        ) : null}
        {tax ? (
          <div>
            <dt data-testid="tax-label">{tax.label}</dt>
            <dd data-testid="tax">{formatMoney(checkout.tax_amount ?? 0, c)}</dd>
          </div>
        ) : null}
        {trial ? (
          <>
            <div>
              <dt>From {formatDate(checkout.trial_end)}</dt>
              <dd data-testid="after-trial">
                {formatMoney(checkout.total_amount, c)}
                <span className="totals__per">{per}</span>
              </dd>
            </div>
            <div className="totals__total">
              <dt>Due today</dt>
              <dd data-testid="total">{formatMoney(0, c)}</dd>
            </div>
          </>
        ) : (
          <div className="totals__total">
            <dt>Total</dt>
            <dd data-testid="total">
              {formatMoney(checkout.total_amount, c)}
              {per ? <span className="totals__per">{per}</span> : null}
            </dd>
          </div>
        )}
      </dl>
      {tax?.legend ? (
        <p className="totals__legend" data-testid="tax-legend">
          {tax.legend}
        </p>
      ) : null}
      {trial ? (
        <p className="totals__trial" data-testid="trial">
          {trial}. Cancel before {formatDate(checkout.trial_end)} and you pay nothing.
        </p>
      ) : null}
    </>
  );
}
