// The portal's smaller sections: benefits, usage meters, saved payment methods, billing details.
import { useCallback, useRef, useState } from "react";
import {
  customerPortalBenefitGrantsList,
  customerPortalCustomerMetersList,
  customerPortalCustomersAddPaymentMethod,
  customerPortalCustomersDeletePaymentMethod,
  customerPortalCustomersGet,
  customerPortalCustomersListPaymentMethods,
  customerPortalCustomersSetDefaultPaymentMethod,
} from "../../../../generated/client/sdk.gen.js";
import type { AddressInput, CustomerCustomerMeter, CustomerPaymentMethod } from "../../../../generated/client/types.gen.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, aria, Button, CountryOptions, Field, Loading } from "../../ui/components.js";
import { CardForm, type PaymentCollector } from "../checkout/payment.js";
import { GrantCard } from "./benefits.js";
import { CustomerForm, useCustomerSave } from "./customer-save.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { Failed } from "./layout.js";

export function BenefitsSection() {
  const { client } = usePortal();
  const [grants] = useLoad(
    () => call(customerPortalBenefitGrantsList({ client, query: { limit: 100, sorting: ["-granted_at"] } })),
    [client],
  );
  if (grants.state === "loading") return <Loading label="Loading your benefits…" />;
  if (grants.state === "failed") return <Failed error={grants.error} />;
  const live = grants.data.items.filter((g) => !g.is_revoked);
  const revoked = grants.data.items.filter((g) => g.is_revoked);
  return (
    <section aria-labelledby="benefits-title">
      <h2 id="benefits-title">Benefits</h2>
      {live.length === 0 ? <p className="empty">No benefits yet.</p> : live.map((g) => <GrantCard key={g.id} client={client} grant={g} />)}
      {revoked.length ? (
        <details>
          <summary>Ended benefits ({revoked.length})</summary>
          {revoked.map((g) => (
            <GrantCard key={g.id} client={client} grant={g} />
          ))}
        </details>
      ) : null}
    </section>
  );
}

type MeterOfUsage = CustomerCustomerMeter["meter"];

/** Units in the meter's unit: tokens per million, a custom unit per its multiplier of its label. */
function inUnit(n: number, meter: MeterOfUsage): string {
  const [scale, label] =
    meter.unit === "token"
      ? [1_000_000, "1M tokens"]
      : meter.unit === "custom"
        ? [meter.custom_multiplier ?? 1, meter.custom_label]
        : [1, null];
  const shown = (n / scale).toLocaleString(undefined, { maximumFractionDigits: 6 });
  if (!label) return shown;
  return `${shown}${scale === 1 ? " " : " × "}${label}`;
}

export function UsageSection() {
  const { client } = usePortal();
  const [meters] = useLoad(() => call(customerPortalCustomerMetersList({ client, query: { limit: 100 } })), [client]);
  if (meters.state === "loading") return <Loading label="Loading your usage…" />;
  if (meters.state === "failed") {
    return (
      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <p className="empty" data-testid="usage-empty">
          Usage is not available for your account yet. {meters.error.status >= 500 ? "" : "It appears here once your plan counts usage."}
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      {meters.data.items.length === 0 ? (
        <p className="empty" data-testid="usage-empty">
          Nothing metered on your plans.
        </p>
      ) : (
        // Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too.
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Usage per meter">
          <table className="table">
            <caption className="visually-hidden">Usage per meter</caption>
            <thead>
              <tr>
                <th scope="col">Meter</th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  Credited
                </th>
                <th scope="col" className="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {meters.data.items.map((m) => (
                <tr key={m.id}>
                  <th scope="row">{m.meter.name}</th>
                  <td className="num">{inUnit(m.consumed_units, m.meter)}</td>
                  <td className="num">{inUnit(m.credited_units, m.meter)}</td>
                  <td className="num">{inUnit(m.balance, m.meter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function describe(method: CustomerPaymentMethod): string {
  if (method.type === "card" && "method_metadata" in method) {
    const m = method.method_metadata;
    const brand = m.brand.charAt(0).toUpperCase() + m.brand.slice(1);
    return `${brand} ending in ${m.last4}${m.exp_month ? ` · expires ${String(m.exp_month).padStart(2, "0")}/${String(m.exp_year).slice(-2)}` : ""}`;
  }
  return method.type;
}

export function PaymentMethodsSection() {
  const { client, customer, setCustomer } = usePortal();
  const [methods, reload] = useLoad(() => call(customerPortalCustomersListPaymentMethods({ client, query: { limit: 100 } })), [client]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [makeDefault, setMakeDefault] = useState(true);
  const [addError, setAddError] = useState<string | null>(null);
  const collector = useRef<PaymentCollector | null>(null);
  const register = useCallback((c: PaymentCollector) => (collector.current = c), []);
  const act = async (id: string, what: "default" | "remove") => {
    setBusy(`${what}:${id}`);
    setErrors((e) => ({ ...e, [id]: "" }));
    try {
      if (what === "default") setCustomer(await call(customerPortalCustomersSetDefaultPaymentMethod({ client, path: { id } })));
      else {
        await send(customerPortalCustomersDeletePaymentMethod({ client, path: { id } }));
        reload();
      }
    } catch (err) {
      setErrors((e) => ({ ...e, [id]: err instanceof ApiFailure ? err.detail : String(err) }));
    } finally {
      setBusy(null);
    }
  };
  const add = async () => {
    setAddError(null);
    const token = await collector.current?.token();
    if (!token) return;
    setBusy("add");
    try {
      const added = await call(
        customerPortalCustomersAddPaymentMethod({
          client,
          body: { confirmation_token_id: token, set_default: makeDefault, return_url: window.location.href },
        }),
      );
      if (added.status === "requires_action") {
        setAddError(
          "This card asks for your bank's confirmation (3-D Secure), which saving a card here cannot ask for. Please use another card.",
        );
        return;
      }
      setAdding(false);
      reload();
      setCustomer(await call(customerPortalCustomersGet({ client })));
    } catch (err) {
      setAddError(err instanceof ApiFailure ? (err.fields.confirmation_token_id ?? err.detail) : String(err));
    } finally {
      setBusy(null);
    }
  };
  if (methods.state === "loading") return <Loading label="Loading your payment methods…" />;
  if (methods.state === "failed") return <Failed error={methods.error} />;
  return (
    <section aria-labelledby="methods-title">
      <div className="section-title">
        <h2 id="methods-title">Payment methods</h2>
        {!adding ? (
          <Button kind="secondary" onClick={() => setAdding(true)}>
            Add a card
          </Button>
        ) : null}
      </div>
      {adding ? (
        <div className="card">
          <h3>New card</h3>
          <CardForm intent={{ amount: null, currency: "usd", saveForLater: true }} register={register} declined={addError} />
          <div className="field field--checkbox">
            <input id="make-default" type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} />
            <label htmlFor="make-default">Use this card for my subscriptions from now on</label>
          </div>
          <div className="actions">
            <Button kind="primary" busy={busy === "add"} onClick={() => void add()}>
              Save card
            </Button>
            <Button onClick={() => setAdding(false)}>Cancel</Button>
          </div>
        </div>
      ) : null}
      {methods.data.items.length === 0 ? <p className="empty">No saved payment methods.</p> : null}
      <ul className="list">
        {methods.data.items.map((m) => {
          const isDefault = customer.default_payment_method_id === m.id;
          return (
            <li key={m.id} className="card">
              <div className="row">
                <span data-testid="payment-method">
                  {describe(m)} {isDefault ? <span className="badge badge--active">Default</span> : null}
                </span>
                <span className="row">
                  {!isDefault ? (
                    <Button
                      busy={busy === `default:${m.id}`}
                      label={`Make ${describe(m)} the default`}
                      onClick={() => void act(m.id, "default")}
                    >
                      Make default
                    </Button>
                  ) : null}
                  <Button
                    kind="danger"
                    busy={busy === `remove:${m.id}`}
                    label={`Remove ${describe(m)}`}
                    onClick={() => void act(m.id, "remove")}
                  >
                    Remove
                  </Button>
                </span>
              </div>
              {errors[m.id] ? <Alert kind="error">{errors[m.id]}</Alert> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const LINES = [
  { key: "line1", label: "Address", autoComplete: "address-line1" },
  { key: "line2", label: "Address line 2", autoComplete: "address-line2" },
  { key: "city", label: "City", autoComplete: "address-level2" },
  { key: "postal_code", label: "Postal code", autoComplete: "postal-code" },
  { key: "state", label: "State / province", autoComplete: "address-level1" },
] as const;

export function BillingSection() {
  const { customer } = usePortal();
  const [name, setName] = useState(customer.billing_name ?? "");
  const [address, setAddress] = useState<Partial<AddressInput>>(customer.billing_address ?? {});
  const first = customer.tax_id?.[0];
  const [taxId, setTaxId] = useState(typeof first === "string" ? first : "");
  const state = useCustomerSave();
  const errors = state.errors;
  const save = () => {
    const billing: AddressInput | null = address.country
      ? { country: address.country, ...Object.fromEntries(LINES.map((l) => [l.key, address[l.key]?.trim() || null])) }
      : null;
    return state.save({ billing_name: name.trim() || null, billing_address: billing, tax_id: taxId.trim() || null });
  };
  const err = (k: string) => errors[`billing_address.${k}`] ?? (k === "country" ? errors.billing_address : undefined);
  return (
    <CustomerForm id="billing-title" title="Billing details" state={state} submit="Save billing details" onSubmit={() => void save()}>
      <p className="muted">Shown on your invoices.</p>
      <Field label="Billing name" error={errors.billing_name}>
        {(ids) => <input {...aria(ids)} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Country" error={err("country")}>
        {(ids) => (
          <select
            {...aria(ids)}
            autoComplete="country"
            value={address.country ?? ""}
            onChange={(e) => setAddress({ ...address, country: e.target.value })}
          >
            <CountryOptions />
          </select>
        )}
      </Field>
      <div className="grid-2">
        {LINES.map((l) => (
          <Field key={l.key} label={l.label} error={err(l.key)}>
            {(ids) => (
              <input
                {...aria(ids)}
                autoComplete={l.autoComplete}
                value={address[l.key] ?? ""}
                onChange={(e) => setAddress({ ...address, [l.key]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <Field label="Tax ID" help="VAT, GST or another tax number, checked against the country." error={errors.tax_id}>
        {(ids) => <input {...aria(ids)} value={taxId} onChange={(e) => setTaxId(e.target.value)} />}
      </Field>
    </CustomerForm>
  );
}
