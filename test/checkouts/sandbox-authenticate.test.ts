// The sandbox's 3-D Secure page at POST /v1/integrations/sandbox/authenticate
// (server/checkouts/sandbox-authenticate.ts): a checkout confirmed with the authentication card
// waits; approving completes it (one order, a second answer changes nothing), failing opens it
// again; bad input is a 422, an unknown client secret a 404.
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

function answer(body: Record<string, unknown>) {
  return fetch(`${api.url}/v1/integrations/sandbox/authenticate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("sandbox 3-D Secure page", () => {
  let polar: Polar;
  let productId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    polar = api.client(token);
    productId = (await createCheckoutProduct(api.knex, org.id)).product.id;
  });

  async function waitingCheckout(email: string) {
    const checkout = await polar.checkouts.create({ products: [productId] });
    const confirmed = await polar.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: email,
        customerBillingAddress: { country: "FR" },
        confirmationTokenId: "tok_sandbox_requires_action",
      },
    });
    expect(confirmed.paymentProcessorMetadata.intent_status).toBe("requires_action");
    return checkout;
  }

  it("completes the checkout when the buyer approves, once", async () => {
    const checkout = await waitingCheckout("approve@example.com");
    const first = await answer({ client_secret: checkout.clientSecret, outcome: "approve" });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: "succeeded" });
    const again = await answer({ client_secret: checkout.clientSecret, outcome: "fail" });
    expect(await again.json()).toEqual({ status: "succeeded" });
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(1);
  });

  it("opens the checkout again when the buyer fails the challenge", async () => {
    const checkout = await waitingCheckout("fail@example.com");
    const res = await answer({ client_secret: checkout.clientSecret, outcome: "fail" });
    expect(await res.json()).toEqual({ status: "open" });
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(0);
  });

  it("answers 422 on a bad outcome and 404 on an unknown client secret", async () => {
    const bad = await answer({ client_secret: "whatever", outcome: "maybe" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0]).toMatchObject({ loc: ["body", "outcome"], type: "literal_error" });
    const unknown = await answer({ client_secret: "polar_c_unknown", outcome: "approve" });
    expect(unknown.status).toBe(404);
  });
});
