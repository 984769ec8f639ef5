// A checkout link's url (outside the contract): each visit opens a fresh checkout session from
// the link and redirects to its hosted checkout page. Opened by an embed script
// (`?embed=true&embed_origin=…&theme=…`, as @polar-sh/checkout adds them), the checkout keeps the
// parent page's origin as its embed_origin and the page its embed parameters.
import { Router } from "express";
import type { Knex } from "knex";
import { ResourceNotFound } from "../kit/errors.js";
import { createCheckoutFromLink } from "../checkouts/service.js";
import { checkoutUrl } from "../checkouts/models.js";
import { findBySecret, loadProductIds } from "./repository.js";

export function checkoutLinkRoutes(knex: Knex): Router {
  const router = Router();
  router.get("/v1/checkout-links/:client_secret/redirect", async (req, res, next) => {
    try {
      const link = await findBySecret(knex, req.params.client_secret);
      if (!link) throw new ResourceNotFound("Checkout link not found.");
      const productIds = (await loadProductIds(knex, [link.id])).get(link.id)!;
      const query = req.query as Record<string, unknown>;
      const embedOrigin = typeof query.embed_origin === "string" ? query.embed_origin : null;
      const checkout = await createCheckoutFromLink(knex, link, productIds, { embedOrigin });
      const keep = new URLSearchParams();
      for (const key of ["embed", "embed_origin", "theme"]) if (typeof query[key] === "string") keep.set(key, query[key] as string);
      res.redirect(302, checkoutUrl(checkout.client_secret) + (keep.size ? `?${keep}` : ""));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
