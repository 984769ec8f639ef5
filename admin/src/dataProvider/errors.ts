// The API's error bodies as react-admin errors. A 422's detail[].loc becomes a nested errors object
// react-admin puts on the matching form fields (loc ["body", "prices", 0, "price_amount"] →
// prices.0.price_amount); any other error is a notification naming the error and its detail (an
// OAuth2 error's error_description).
import { HttpError } from "react-admin";

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

type Nested = { [key: string]: string | Nested };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isIssue(v: unknown): v is ValidationIssue {
  return isRecord(v) && Array.isArray(v.loc) && typeof v.msg === "string";
}

/** The path of the form field an issue concerns: loc without its "body" / "query" / "path" head. */
export function fieldPath(issue: ValidationIssue): (string | number)[] {
  return ["body", "query", "path"].includes(String(issue.loc[0])) ? issue.loc.slice(1) : issue.loc;
}

/** {prices: {0: {price_amount: "msg"}}} from the issues; messages for the same field are joined. */
export function issuesToErrors(issues: ValidationIssue[]): Nested {
  const errors: Nested = {};
  const summary: string[] = [];
  for (const issue of issues) {
    const path = fieldPath(issue);
    summary.push(path.length ? `${path.join(".")}: ${issue.msg}` : issue.msg);
    if (!path.length) continue;
    let node: Nested = errors;
    path.forEach((key, i) => {
      const k = String(key);
      if (i === path.length - 1) {
        const prev = node[k];
        node[k] = typeof prev === "string" ? `${prev}; ${issue.msg}` : issue.msg;
        return;
      }
      const next = node[k];
      if (isRecord(next)) node = next as Nested;
      else {
        const fresh: Nested = {};
        node[k] = fresh;
        node = fresh;
      }
    });
  }
  // shown as the form's notification (react-admin reads root.serverError)
  errors.root = { serverError: `Invalid input — ${summary.join("; ")}` };
  return errors;
}

/** The message of an error body: "<ErrorName>: <detail>" when the body names one. */
export function errorMessage(status: number, body: unknown): string {
  if (isRecord(body)) {
    const name = typeof body.error === "string" ? body.error : null;
    const detail = [body.detail, body.error_description, body.message].find((d): d is string => typeof d === "string") ?? null;
    if (Array.isArray(body.detail) && body.detail.every(isIssue)) {
      return `Invalid input — ${body.detail.map((i) => `${fieldPath(i).join(".") || "request"}: ${i.msg}`).join("; ")}`;
    }
    if (name && detail) return `${name}: ${detail}`;
    if (name) return name;
    if (detail) return detail;
  }
  if (typeof body === "string" && body.trim()) return `HTTP ${status}: ${body.slice(0, 300)}`;
  return `HTTP ${status}`;
}

export function apiError(status: number, body: unknown): HttpError {
  const message = errorMessage(status, body);
  if (status === 422 && isRecord(body) && Array.isArray(body.detail) && body.detail.every(isIssue)) {
    return new HttpError(message, status, { ...body, errors: issuesToErrors(body.detail) });
  }
  return new HttpError(message, status, body);
}
