// Saving the customer's own details (billing details, email preferences): the update call, its
// errors by field (or for the whole form), and the section's form with the outcome and the button.
import { useState, type ReactNode } from "react";
import { customerPortalCustomersUpdate } from "../../../../generated/client/sdk.gen.js";
import type { CustomerPortalCustomerUpdate } from "../../../../generated/client/types.gen.js";
import { ApiFailure, call, type FieldErrors } from "../../api/errors.js";
import { Alert, Button } from "../../ui/components.js";
import { usePortal } from "./context.js";

export interface CustomerSave {
  errors: FieldErrors;
  saved: boolean;
  busy: boolean;
  save(body: CustomerPortalCustomerUpdate): Promise<void>;
}

export function useCustomerSave(): CustomerSave {
  const { client, setCustomer } = usePortal();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (body: CustomerPortalCustomerUpdate) => {
    setBusy(true);
    setSaved(false);
    try {
      setCustomer(await call(customerPortalCustomersUpdate({ client, body })));
      setErrors({});
      setSaved(true);
    } catch (err) {
      setErrors(err instanceof ApiFailure ? (Object.keys(err.fields).length ? err.fields : { form: err.detail }) : { form: String(err) });
    } finally {
      setBusy(false);
    }
  };
  return { errors, saved, busy, save };
}

/** A section of the customer's details: its heading, its fields, the outcome and the save button. */
export function CustomerForm(props: {
  id: string;
  title: string;
  state: CustomerSave;
  submit: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { state } = props;
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        {props.children}
        {state.errors.form ? <Alert kind="error">{state.errors.form}</Alert> : null}
        {state.saved ? <Alert kind="success">Saved.</Alert> : null}
        <Button type="submit" kind="primary" busy={state.busy}>
          {props.submit}
        </Button>
      </form>
    </section>
  );
}
