// The app's routes, from the URL path: the hosted checkout and its confirmation, and the
// customer portal with one path segment per section. History API navigation, no library.
import { useSyncExternalStore } from "react";

export type Route =
  | { name: "checkout"; secret: string }
  | { name: "confirmation"; secret: string }
  | { name: "portal"; slug: string; section: string }
  | { name: "not_found" };

export function parseRoute(pathname: string): Route {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "checkout" && parts[1]) {
    if (parts.length === 2) return { name: "checkout", secret: parts[1] };
    if (parts.length === 3 && parts[2] === "confirmation") return { name: "confirmation", secret: parts[1] };
  }
  if (parts.length >= 2 && parts[1] === "portal") return { name: "portal", slug: parts[0], section: parts[2] ?? "overview" };
  return { name: "not_found" };
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener("popstate", notify);

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.scrollTo(0, 0);
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => window.location.pathname + window.location.search;

/** The current path and query; re-renders on navigation. */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams };
}
