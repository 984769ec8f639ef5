// The sandbox's stand-in for a bank's 3-D Secure page (outside the contract, sandbox only): a
// checkout paid with test card 4000 0025 0000 3155 stays confirmed until the buyer approves
// (a success) or fails (a decline) the challenge here. Keyed by the checkout's client secret,
// which only the buyer's page holds; a second answer changes nothing.
import type { FastifyInstance } from "fastify";
import type { Knex } from "knex";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { getProcessor } from "../processors/index.js";
import { parseSandboxToken } from "../processors/sandbox.js";
import { completeCheckout, failCheckout } from "./confirm.js";
import { findBySecret } from "./repository.js";

export function sandboxRoutes(knex: Knex) {
  return async (app: FastifyInstance) =>
    void app.post("/v1/integrations/sandbox/authenticate", { bodyLimit: 16 * 1024 }, async (req) => {
      if (getProcessor().name !== "sandbox") throw new ResourceNotFound("No such route.");
      const body = (req.body ?? {}) as { client_secret?: unknown; outcome?: unknown };
      if (typeof body.client_secret !== "string") throw invalid(["body", "client_secret"], "Field required", "missing");
      if (body.outcome !== "approve" && body.outcome !== "fail")
        throw invalid(["body", "outcome"], "Input should be 'approve' or 'fail'", "literal_error", body.outcome);
      const row = await findBySecret(knex, body.client_secret);
      if (!row) throw new ResourceNotFound("Checkout not found.");
      const waiting = row.status === "confirmed" && row.payment_processor_metadata?.intent_status === "requires_action" && row.payment_ref;
      if (waiting) {
        const card = parseSandboxToken("tok_sandbox_requires_action")!.card;
        if (body.outcome === "approve") await completeCheckout(knex, row.id, { processor: "sandbox", paymentRef: row.payment_ref, card });
        else {
          await failCheckout(knex, row.id, {
            paymentRef: row.payment_ref,
            code: "authentication_failed",
            message: "The card's authentication failed.",
            card,
            processor: "sandbox",
          });
        }
      }
      const after = await findBySecret(knex, body.client_secret);
      return { status: after?.status ?? row.status };
    });
}
