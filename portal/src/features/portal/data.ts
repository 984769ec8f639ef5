// Loading a portal section's data: the answer, the failure (in the contract's terms) or loading,
// and a reload after an action.
import { useCallback, useEffect, useState } from "react";
import { ApiFailure } from "../../api/errors.js";

export type Loaded<T> = { state: "loading" } | { state: "ready"; data: T } | { state: "failed"; error: ApiFailure };

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [result, setResult] = useState<Loaded<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setResult({ state: "ready", data }),
      (err: unknown) =>
        live && setResult({ state: "failed", error: err instanceof ApiFailure ? err : new ApiFailure(0, null, String(err), {}) }),
    );
    return () => {
      live = false;
    };
    // The caller lists what the load depends on (`load` itself is a new function each render).
  }, [...deps, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return [result, reload];
}
