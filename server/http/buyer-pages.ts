// The headers of the buyer's pages (the hosted checkout and the customer portal, served by
// server/kit/ui-apps.ts): both may load Stripe.js for their card fields, and a checkout page may be
// framed by the origin its checkout was opened from (`embed_origin`, set by @polar-sh/checkout's
// embed script through the checkout link), by that origin alone, and only when the organization's
// `embed_hosts` allow it (server/organizations/embed-hosts.ts). Every other page keeps the CSP of
// server/http/security.ts: our own assets, never framed.
import type { FastifyReply } from "fastify";
import type { Knex } from "knex";
import { findBySecret } from "../checkouts/repository.js";
import { routeMatcher } from "../kit/ui-apps.js";
import { embeddableBy } from "../organizations/embed-hosts.js";
import { findOrganization } from "../organizations/repository.js";
import { allowStripe, frameableBy } from "./security.js";

const checkoutPage = routeMatcher("/checkout/:clientSecret/*");
const portalPage = routeMatcher("/:slug/portal/*");

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return ""; // not a secret we could have made: the page answers "not found" by itself
  }
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
