// A checkout link's url (outside the contract): each visit opens a fresh checkout session from
// the link and redirects to its hosted checkout page.
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
      const checkout = await createCheckoutFromLink(knex, link, productIds);
      res.redirect(302, checkoutUrl(checkout.client_secret));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
