// Embedded checkout: opened in an iframe with ?embed=true&embed_origin=<parent origin> (what
// @polar-sh/checkout's PolarEmbedCheckout.create adds), the page tells its parent what happens
// with the messages of Polar's embed protocol: {type: "POLAR_CHECKOUT", event: "loaded" |
// "close" | "confirmed" | "success", …}, posted to the parent's origin only.
export type EmbedEvent =
  { event: "loaded" } | { event: "close" } | { event: "confirmed" } | { event: "success"; successURL: string; redirect: boolean };

export interface Embed {
  embedded: boolean;
  origin: string | null;
  theme: "light" | "dark" | null;
  post(message: EmbedEvent): void;
}

function originOf(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

export function embedFrom(search: URLSearchParams, checkoutOrigin: string | null = null): Embed {
  const embedded = search.get("embed") === "true" && window.parent !== window;
  const origin = originOf(search.get("embed_origin")) ?? originOf(checkoutOrigin);
  const theme = search.get("theme") === "dark" ? "dark" : search.get("theme") === "light" ? "light" : null;
  return {
    embedded,
    origin,
    theme,
    post(message) {
      if (!embedded || !origin) return;
      window.parent.postMessage({ ...message, type: "POLAR_CHECKOUT" }, origin);
    },
  };
}

/** The query string that keeps embed mode across the page's own navigations. */
export function embedQuery(search: URLSearchParams): string {
  const keep = new URLSearchParams();
  for (const key of ["embed", "embed_origin", "theme"]) {
    const value = search.get(key);
    if (value) keep.set(key, value);
  }
  return keep.toString();
}
