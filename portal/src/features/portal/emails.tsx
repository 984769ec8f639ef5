// The portal's email preferences: the reminders the customer may switch off. Receipts, payment
// failures and the other emails about their purchases always go (the organization decides those).
// Where the organization allows it, the customer changes their address here too.
import { useState } from "react";
import type { CustomerEmailPreferences } from "../../../../generated/client/types.gen.js";
import { usePortal } from "./context.js";
import { CustomerForm, useCustomerSave } from "./customer-save.js";
import { EmailChange } from "./email-change.js";

const CHOICES: { key: keyof CustomerEmailPreferences; label: string; help: string }[] = [
  { key: "subscription_renewal_reminder", label: "Renewal reminders", help: "A reminder before a yearly subscription renews." },
  { key: "payment_method_expiration_reminder", label: "Card expiry reminders", help: "A reminder before a saved card expires." },
];

export function EmailsSection() {
  const { customer, sections } = usePortal();
  const [prefs, setPrefs] = useState<CustomerEmailPreferences>(customer.email_preferences);
  const state = useCustomerSave();
  return (
    <>
      {sections.customer?.allow_email_change ? <EmailChange /> : null}
      <CustomerForm
        id="emails-title"
        title="Email preferences"
        state={state}
        submit="Save email preferences"
        onSubmit={() => void state.save({ email_preferences: prefs })}
      >
        <p className="muted">Receipts, payment failures and other emails about your purchases are always sent to {customer.email}.</p>
        {CHOICES.map((c) => {
          const error = state.errors[`email_preferences.${c.key}`];
          return (
            <div key={c.key} className={`field field--checkbox${error ? " field--invalid" : ""}`}>
              <input
                id={`pref-${c.key}`}
                type="checkbox"
                checked={prefs[c.key]}
                aria-describedby={`pref-${c.key}-help`}
                aria-invalid={Boolean(error)}
                onChange={(e) => setPrefs({ ...prefs, [c.key]: e.target.checked })}
              />
              <label htmlFor={`pref-${c.key}`}>{c.label}</label>
              <p className="field__help" id={`pref-${c.key}-help`}>
                {c.help}
              </p>
              {error ? (
                <p className="field__error" role="alert">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
      </CustomerForm>
    </>
  );
}
