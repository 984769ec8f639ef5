// The few building blocks every screen uses: a labelled field that shows its server error next
// to it, alerts, buttons with a busy state, and a loading line.
import { useId, type ReactNode } from "react";
import { countries } from "./countries.js";

export interface FieldIds {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

/** The attributes that tie an input to its label, help and error. */
export function aria(ids: FieldIds) {
  return { id: ids.id, "aria-describedby": ids.describedBy, "aria-invalid": ids.invalid };
}

export function Field(props: {
  label: ReactNode;
  error?: string;
  help?: ReactNode;
  required?: boolean;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [props.help ? helpId : null, props.error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${props.error ? " field--invalid" : ""}`}>
      <label htmlFor={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {props.children({ id, describedBy, invalid: Boolean(props.error) })}
      {props.help ? (
        <p className="field__help" id={helpId}>
          {props.help}
        </p>
      ) : null}
      {props.error ? (
        <p className="field__error" id={errorId} role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function Alert(props: { kind?: "error" | "info" | "success" | "warning"; title?: string; children: ReactNode }) {
  const kind = props.kind ?? "info";
  return (
    <div className={`alert alert--${kind}`} role={kind === "error" ? "alert" : "status"}>
      {props.title ? <p className="alert__title">{props.title}</p> : null}
      <div>{props.children}</div>
    </div>
  );
}

export function Button(props: {
  children: ReactNode;
  onClick?: () => void;
  type?: "button" | "submit";
  kind?: "primary" | "secondary" | "danger" | "link";
  busy?: boolean;
  disabled?: boolean;
  label?: string;
}) {
  return (
    <button
      type={props.type ?? "button"}
      className={`button button--${props.kind ?? "secondary"}`}
      onClick={props.onClick}
      disabled={props.disabled || props.busy}
      aria-busy={props.busy || undefined}
      aria-label={props.label}
    >
      {props.children}
    </button>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? "Loading…"}
    </p>
  );
}

/** A whole-page message: not found, expired, errors. */
export function MessagePage(props: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <main className="page page--narrow">
      <div className="card message-page">
        <h1>{props.title}</h1>
        {props.children}
        {props.actions ? <div className="actions">{props.actions}</div> : null}
      </div>
    </main>
  );
}

/** A country select's options: the prompt, then every country by its name in the reader's language. */
export function CountryOptions() {
  return (
    <>
      <option value="">Choose a country…</option>
      {countries().map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </>
  );
}
