// The headers of the buyer's pages (hosted checkout, customer portal): both may load Stripe.js,
// and a checkout page may be framed by its checkout's `embed_origin` alone, when the
// organization's `embed_hosts` allow it. Every other page keeps server/http/security.ts's CSP.
// Not HTTP: a policy of the browser apps (server/ui-apps.ts) over checkouts and organizations.
import type { FastifyReply } from "fastify";
import type { Knex } from "knex";
import { findBySecret } from "./checkouts/repository.js";
import { routeMatcher } from "./kit/ui-apps.js";
import { embeddableBy } from "./organizations/embed-hosts.js";
import { findOrganization } from "./organizations/repository.js";

const checkoutPage = routeMatcher("/checkout/:clientSecret/*");
const portalPage = routeMatcher("/:slug/portal/*");

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return ""; // not a secret we could have made: the page answers "not found" by itself
  }
}

/** An answer being written: a Fastify reply. */
interface Answer {
  getHeader(name: string): unknown;
  header(name: string, value: string): unknown;
}

/** Lets the page being answered be framed by `origin` alone (the hosted checkout, by its embed_origin). */
export function frameableBy(res: Answer, origin: string | null): void {
  const csp = String(res.getHeader("Content-Security-Policy") ?? "");
  const ancestors = origin ? `frame-ancestors ${origin}` : "frame-ancestors 'none'";
  res.header(
    "Content-Security-Policy",
    csp.includes("frame-ancestors") ? csp.replace(/frame-ancestors [^;]*/, ancestors) : `${csp};${ancestors}`,
  );
}

/** Stripe.js and its Payment Element (the checkout's and the portal's card fields), as Stripe documents them for a CSP. */
const STRIPE_SOURCES: Record<string, string[]> = {
  "script-src": ["https://js.stripe.com"],
  "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
  "connect-src": ["https://api.stripe.com"],
};

/** Lets the page being answered load Stripe.js, its frames and its API (and nothing else beyond our own). */
export function allowStripe(res: Answer): void {
  const directives = String(res.getHeader("Content-Security-Policy") ?? "")
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean);
  for (const [name, sources] of Object.entries(STRIPE_SOURCES)) {
    const at = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (at >= 0) directives[at] = `${directives[at]} ${sources.join(" ")}`;
    else directives.push(`${name} 'self' ${sources.join(" ")}`);
  }
  res.header("Content-Security-Policy", directives.join(";"));
}

/** The headers of a buyer's page at `path` (for a GET or HEAD of one). */
export function buyerPageHeaders(knex: Knex) {
  return async (path: string, res: FastifyReply): Promise<void> => {
    if (checkoutPage(path)) {
      const secret = decoded(path.split("/")[2] ?? "");
      const checkout = secret ? await findBySecret(knex, secret) : undefined;
      const origin = checkout?.embed_origin ?? null;
      const organization = origin && checkout ? await findOrganization(knex, checkout.organization_id) : undefined;
      frameableBy(res, origin && organization && embeddableBy(organization.embed_hosts, origin) ? origin : null);
      allowStripe(res);
    } else if (portalPage(path)) {
      allowStripe(res);
    }
  };
}
