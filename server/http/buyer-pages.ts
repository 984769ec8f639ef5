// The headers of the buyer's pages (hosted checkout, customer portal): both may load Stripe.js,
// and a checkout page may be framed by its checkout's `embed_origin` alone, when the
// organization's `embed_hosts` allow it. Every other page keeps server/http/security.ts's CSP.
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
