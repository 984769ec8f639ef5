// A checkout link's url (outside the contract): a visit opens a checkout from the link and
// redirects to its hosted page. A cookie scoped to the link's path sends the same browser back to
// its open checkout instead of writing a new row each visit; cookieless clients are bounded by the
// public rate limit. From an embed script (`?embed=true&embed_origin=…`) the checkout keeps the
// parent page's origin, and a kept checkout is reused only for that origin.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import { ResourceNotFound } from "../kit/errors.js";
import { createCheckoutFromLink } from "../checkouts/service.js";
import { checkoutUrl } from "../checkouts/models.js";
import { effectiveStatus, findBySecret as findCheckoutBySecret } from "../checkouts/repository.js";
import type { RateLimits } from "../kit/rate-limits.js";
import { limitPublicDoor } from "../http/rate-limit.js";
import { findBySecret, loadProductIds } from "./repository.js";

const COOKIE = "borealis_checkout";

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

export function checkoutLinkRoutes(knex: Knex, limits?: RateLimits) {
  return async (app: FastifyInstance) =>
    void app.get<{ Params: { client_secret: string } }>("/v1/checkout-links/:client_secret/redirect", async (req, res) => {
      res.header("Cache-Control", "no-store");
      const link = await findBySecret(knex, req.params.client_secret);
      if (!link) throw new ResourceNotFound("Checkout link not found.");
      const query = req.query as Record<string, unknown>;
      const embedOrigin = typeof query.embed_origin === "string" ? query.embed_origin : null;
      const keep = new URLSearchParams();
      for (const key of ["embed", "embed_origin", "theme"]) if (typeof query[key] === "string") keep.set(key, query[key] as string);
      const embedQuery = keep.size ? `?${keep}` : "";
      const kept = cookie(req, COOKIE);
      const earlier = kept ? await findCheckoutBySecret(knex, kept) : undefined;
      if (
        earlier &&
        earlier.checkout_link_id === link.id &&
        effectiveStatus(earlier) === "open" &&
        (earlier.embed_origin ?? null) === embedOrigin
      ) {
        return res.redirect(checkoutUrl(earlier.client_secret) + embedQuery, 302);
      }
      // Only a visit that writes a checkout counts against the address's limit.
      if (limits) await limitPublicDoor(limits, req, res, "checkout-links:redirect");
      const productIds = (await loadProductIds(knex, [link.id])).get(link.id)!;
      const checkout = await createCheckoutFromLink(knex, link, productIds, { embedOrigin });
      const maxAge = Math.max(0, Math.floor((new Date(checkout.expires_at).getTime() - Date.now()) / 1000));
      const path = `/v1/checkout-links/${encodeURIComponent(req.params.client_secret)}/redirect`;
      const expires = new Date(Date.now() + maxAge * 1000).toUTCString();
      const secure = req.protocol === "https" ? "; Secure" : "";
      res.header(
        "Set-Cookie",
        `${COOKIE}=${encodeURIComponent(checkout.client_secret)}; Max-Age=${maxAge}; Path=${path}; Expires=${expires}; HttpOnly${secure}; SameSite=Lax`,
      );
      return res.redirect(checkoutUrl(checkout.client_secret) + embedQuery, 302);
    });
}
