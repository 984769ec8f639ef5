// In-process hand-over of new webhook events to an endpoint's run of first attempts that is still
// open: the fan-out pokes the listener here instead of signalling the workflow, so a busy endpoint
// costs no workflow task per event. The database queue stays the truth; a poke means "read again".
// A listener clears `poked` before each read and closes only if no poke came since, so nothing is
// missed; once closed, or in another process, the caller signals the workflow instead.
import { setMaxListeners } from "node:events";

export interface Listener {
  readonly endpointId: string;
  /** A poke came since the last clear. */
  poked: boolean;
  /** Resolves the wait in progress, if any. */
  wake: (() => void) | null;
}

const listeners = new Map<string, Listener>();

/** Wakes the endpoint's open listener; false when there is none (signal the workflow instead). */
export function pokeListener(endpointId: string): boolean {
  const l = listeners.get(endpointId);
  if (!l) return false;
  l.poked = true;
  l.wake?.();
  return true;
}

/**
 * Opens the endpoint's listener, unless one is open already (a run that outlived its workflow
 * task) or `max` are open in this process (each holds its workflow task while it waits).
 */
export function openListener(endpointId: string, max: number): Listener | null {
  if (listeners.has(endpointId) || listeners.size >= max) return null;
  const l: Listener = { endpointId, poked: false, wake: null };
  listeners.set(endpointId, l);
  return l;
}

/**
 * Closes the listener unless a poke came since its last clear; answers whether it closed (if
 * not, read the queue again). Synchronous on purpose: see the file's first lines.
 */
export function closeListener(l: Listener): boolean {
  if (l.poked) return false;
  if (listeners.get(l.endpointId) === l) listeners.delete(l.endpointId);
  return true;
}

/** Closes it whatever came (the run is ending for another reason: it reads no more). */
export function dropListener(l: Listener): void {
  if (listeners.get(l.endpointId) === l) listeners.delete(l.endpointId);
}

/**
 * The stop signal of a set of listening runs. Every run waiting on it adds a listener (as many as
 * endpoints listening at once, up to the cap), so it takes any number without Node's "possible
 * memory leak" warning, which it would print past 10: each wait removes its own when it ends.
 */
export function listeningStop(): AbortController {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  return stop;
}

/** Waits up to `ms` for a poke (true) or the time or `signal` (false). */
export function waitForPoke(l: Listener, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (l.poked) return Promise.resolve(true);
  if (ms <= 0 || signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (poked: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      l.wake = null;
      resolve(poked);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    signal?.addEventListener("abort", aborted);
    l.wake = () => done(true);
  });
}

/** Open listeners in this process (tests, diagnostics). */
export function openListeners(): number {
  return listeners.size;
}
