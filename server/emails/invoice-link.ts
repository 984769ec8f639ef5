// An email's signed links (outside the contract), signed by ./links.ts and answered with a redirect
// to a short-lived signed download; anything else is a 404:
//   /emails/invoices/<order>?signature=…          the paid order's invoice PDF (rendered if missing)
//   /emails/downloads/<grant>/<file>?signature=…  a downloadables benefit's file, while granted
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import { grantedFiles } from "../benefit-grants/repository.js";
import { getStorage, PRESIGN_TTL_SECONDS } from "../files/storage.js";
import { ResourceNotFound } from "../kit/errors.js";
import { storeInvoice } from "../orders/invoice.js";
import { isUnpaid } from "../orders/models.js";
import { findOrder } from "../orders/repository.js";
import { orderDependents } from "../subscriptions/repository.js";
import { benefitFileSignatureValid, invoiceSignatureValid } from "./links.js";

type Download = { path: string; filename: string; mimeType: string };

type LinkRequest<P> = FastifyRequest<{ Params: P; Querystring: { signature?: unknown } }>;

/** A route that redirects to a short-lived signed download of what `find` finds for the request. */
function downloadRoute<P>(find: (req: LinkRequest<P>) => Promise<Download>) {
  return async (req: LinkRequest<P>, res: FastifyReply) => {
    res.header("Cache-Control", "no-store");
    const found = await find(req);
    const url = await getStorage().presignDownload(found.path, {
      filename: found.filename,
      mimeType: found.mimeType,
      expiresAt: new Date(Date.now() + PRESIGN_TTL_SECONDS * 1000),
    });
    return res.redirect(url, 302);
  };
}

export function emailLinkRoutes(knex: Knex) {
  return async (router: FastifyInstance) => {
    router.get(
      "/emails/invoices/:orderId",
      downloadRoute<{ orderId: string }>(async (req) => {
        const { orderId } = req.params;
        const order = invoiceSignatureValid(orderId, req.query.signature) ? await findOrder(knex, orderId) : undefined;
        if (!order || isUnpaid(order.status)) throw new ResourceNotFound("Invoice not found.");
        const stored =
          order.is_invoice_generated && order.invoice_path
            ? order.invoice_path
            : (await storeInvoice(knex, order.id, orderDependents)).path;
        return { path: stored, filename: path.posix.basename(stored), mimeType: "application/pdf" };
      }),
    );
    router.get(
      "/emails/downloads/:grantId/:fileId",
      downloadRoute<{ grantId: string; fileId: string }>(async (req) => {
        const { grantId, fileId } = req.params;
        const files = benefitFileSignatureValid(grantId, fileId, req.query.signature) ? await grantedFiles(knex, grantId) : [];
        const file = files.find((f) => f.id === fileId);
        if (!file) throw new ResourceNotFound("File not found.");
        return { path: file.path, filename: file.name, mimeType: file.mime_type };
      }),
    );
  };
}
