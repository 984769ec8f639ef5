// The buyer's checkout session: the checkout as the server last answered it, and every change
// sent through the public update call, one at a time in order, each answer replacing the whole
// checkout (amounts, flags, fields asked). A 422 marks the fields its loc names; the page never
// computes an amount itself.
import { useCallback, useRef, useState } from "react";
import { checkoutsClientGet, checkoutsClientUpdate } from "../../../../generated/client/sdk.gen.js";
import type { CheckoutPublic, CheckoutUpdatePublic } from "../../../../generated/client/types.gen.js";
import { publicClient } from "../../api/client.js";
import { ApiFailure, call, type FieldErrors } from "../../api/errors.js";

export type SessionProblem = { kind: "expired" } | { kind: "gone"; detail: string } | { kind: "error"; detail: string };

export function fetchCheckout(secret: string): Promise<CheckoutPublic> {
  return call(checkoutsClientGet({ client: publicClient, path: { client_secret: secret } }));
}

/** Field errors without the keys `keys` names (and their sub-keys): what a successful change clears. */
function without(errors: FieldErrors, keys: string[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(errors)) if (!keys.some((key) => k === key || k.startsWith(`${key}.`))) out[k] = v;
  return out;
}

export interface CheckoutSession {
  checkout: CheckoutPublic;
  errors: FieldErrors;
  /** Changes in flight. */
  pending: number;
  /** A state the form can't go on from (expired, no longer open, server error). */
  problem: SessionProblem | null;
  /** Sends one change; `keys` are the fields it concerns (their errors clear on success; a 422 for another key lands on the first). */
  update(body: CheckoutUpdatePublic, keys: string[]): Promise<boolean>;
  /** Waits for every change sent so far. */
  settled(): Promise<void>;
  /** Loads the checkout again (after a confirm failed: the server's totals and status). */
  reload(): Promise<CheckoutPublic | null>;
  setErrors(update: (errors: FieldErrors) => FieldErrors): void;
  setCheckout(checkout: CheckoutPublic): void;
  setProblem(problem: SessionProblem | null): void;
}

export function problemOf(err: unknown): SessionProblem | null {
  if (!(err instanceof ApiFailure)) return { kind: "error", detail: String(err) };
  if (err.status === 410) return { kind: "expired" };
  if (err.status === 403 || err.status === 404) return { kind: "gone", detail: err.detail };
  if (err.status === 422 || err.status === 400) return null;
  return { kind: "error", detail: err.detail };
}

export function useCheckoutSession(initial: CheckoutPublic): CheckoutSession {
  const [checkout, setCheckout] = useState(initial);
  const [errors, setErrorsState] = useState<FieldErrors>({});
  const [pending, setPending] = useState(0);
  const [problem, setProblem] = useState<SessionProblem | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const secret = initial.client_secret;

  const update = useCallback(
    (body: CheckoutUpdatePublic, keys: string[]) => {
      setPending((n) => n + 1);
      const run = queue.current.then(async () => {
        try {
          const next = await call(checkoutsClientUpdate({ client: publicClient, path: { client_secret: secret }, body }));
          setCheckout(next);
          setErrorsState((e) => without(e, keys));
          return true;
        } catch (err) {
          if (err instanceof ApiFailure && err.status === 422) {
            const fields = Object.keys(err.fields).length ? err.fields : { [keys[0] ?? "form"]: err.detail };
            setErrorsState((e) => ({ ...without(e, keys), ...fields }));
          } else {
            setProblem(problemOf(err));
          }
          return false;
        } finally {
          setPending((n) => n - 1);
        }
      });
      queue.current = run;
      return run;
    },
    [secret],
  );

  const reload = useCallback(async () => {
    try {
      const next = await fetchCheckout(secret);
      setCheckout(next);
      return next;
    } catch (err) {
      setProblem(problemOf(err));
      return null;
    }
  }, [secret]);

  return {
    checkout,
    errors,
    pending,
    problem,
    update,
    settled: async () => {
      await queue.current;
    },
    reload,
    setErrors: setErrorsState,
    setCheckout,
    setProblem,
  };
}
