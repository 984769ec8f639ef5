// An email's invoice link (outside the contract): `/emails/invoices/<order>?signature=…`, the
// order id signed by ./links.ts. A valid link renders the paid order's invoice when it has none
// yet and redirects to a short-lived signed download of the PDF; anything else is a 404.
import path from "node:path";
import { Router } from "express";
import type { Knex } from "knex";
import { getStorage, PRESIGN_TTL_SECONDS } from "../files/storage.js";
import { ResourceNotFound } from "../kit/errors.js";
import { storeInvoice } from "../orders/invoice.js";
import { findOrder } from "../orders/repository.js";
import { orderDependents } from "../subscriptions/repository.js";
import { invoiceSignatureValid } from "./links.js";

export function emailLinkRoutes(knex: Knex): Router {
  const router = Router();
  router.get("/emails/invoices/:orderId", async (req, res, next) => {
    try {
      res.setHeader("Cache-Control", "no-store");
      const { orderId } = req.params;
      const order = invoiceSignatureValid(orderId, req.query.signature) ? await findOrder(knex, orderId) : undefined;
      if (!order || order.status === "pending") throw new ResourceNotFound("Invoice not found.");
      const stored = order.is_invoice_generated && order.invoice_path ? order.invoice_path : (await storeInvoice(knex, order.id, orderDependents)).path;
      const url = await getStorage().presignDownload(stored, {
        filename: path.posix.basename(stored),
        mimeType: "application/pdf",
        expiresAt: new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000),
      });
      res.redirect(302, url);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
