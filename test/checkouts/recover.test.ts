// Recovery of a confirm that died between claim and outcome (server/checkouts/recover.ts): left
// alone while its lease is renewed, taken over once it lapsed, charged again with the same key
// (one order, one payment, the Idempotency-Key released); a late confirm writes nothing; 3-D
// Secure is left alone; a decline reopens the checkout. recover-crash.test.ts kills processes for real.
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { recoverConfirmedCheckouts } from "../../server/checkouts/recover.js";
import { setProcessor } from "../../server/processors/index.js";
import { ProcessorRefused, type ConfirmPaymentInput, type PaymentProcessor } from "../../server/processors/processor.js";
import { SandboxProcessor } from "../../server/processors/sandbox.js";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();

/** The sandbox, but each confirm's answer is held once the charge is made, until the test lets it through or fails it. */
function heldAfterCharge(sandbox: SandboxProcessor): { processor: PaymentProcessor; held: { pass(): void; fail(err: Error): void }[] } {
  const held: { pass(): void; fail(err: Error): void }[] = [];
  const processor = Object.assign(Object.create(sandbox) as SandboxProcessor, {
    confirmPayment: async (input: ConfirmPaymentInput) => {
      const answer = await sandbox.confirmPayment(input);
      await new Promise<void>((pass, fail) => held.push({ pass, fail }));
      return answer;
    },
  });
  return { processor, held };
}

describe("confirm recovery", () => {
  let polar: Polar;
  let orgId: string;
  let product: { id: string };
  const sandbox = new SandboxProcessor({ ledgerDir: null });

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    polar = api.client(made.token);
    product = (await createCheckoutProduct(api.knex, orgId, { name: "Recovered" })).product;
  });
  afterEach(() => setProcessor(null));

  /** The buyer's confirm (with an Idempotency-Key when given); its answer. */
  const confirm = (secret: string, email: string, token: string, opts: { key?: string; signal?: AbortSignal } = {}) =>
    fetch(`${api.url}/v1/checkouts/client/${secret}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(opts.key ? { "idempotency-key": opts.key } : {}) },
      body: JSON.stringify({ customer_email: email, customer_billing_address: { country: "FR" }, confirmation_token_id: token }),
      signal: opts.signal,
    });
  const confirmInBackground = (secret: string, token: string, key: string) => {
    const aborted = new AbortController();
    void confirm(secret, "lost@example.com", token, { key, signal: aborted.signal }).catch(() => undefined);
    return aborted;
  };
  const statusOf = async (id: string) => (await api.knex("checkouts").where({ id }).first()).status as string;
  /** As if the confirm's process had stopped renewing its lease a while ago (killed). */
  const lapse = (id: string) =>
    api
      .knex("checkouts")
      .where({ id })
      .update({ confirm_lease_until: api.knex.raw("now() - interval '1 second'") });

  it("settles a checkout whose confirm died after the charge: one order, one payment, the key released", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const stuck = heldAfterCharge(sandbox);
    setProcessor(stuck.processor);
    const key = randomUUID();
    const request = confirmInBackground(checkout.clientSecret, "tok_sandbox_success", key);
    try {
      await expect.poll(() => stuck.held.length, { timeout: 10_000 }).toBe(1);
      expect(await statusOf(checkout.id)).toBe("confirmed");
      const held = await api.knex("idempotency_keys").where({ subject: `checkout:${checkout.id}` });
      expect(held).toMatchObject([{ status: null }]);
      // Its confirm holds the lease: it may still be running.
      setProcessor(sandbox);
      expect(await recoverConfirmedCheckouts(api.knex)).toBe(0);
      expect(await statusOf(checkout.id)).toBe("confirmed");

      await lapse(checkout.id);
      expect(await recoverConfirmedCheckouts(api.knex)).toBeGreaterThanOrEqual(1);
      expect(await statusOf(checkout.id)).toBe("succeeded");
      const orders = await api.knex("orders").where({ checkout_id: checkout.id });
      expect(orders).toMatchObject([{ status: "paid" }]);
      const payments = await api.knex("payments").where({ checkout_id: checkout.id });
      expect(payments).toHaveLength(1);
      // The sandbox answered the charge it had made: the same payment intent, not a second one.
      const first = await sandbox.confirmPayment({
        amount: 2500,
        currency: "usd",
        confirmationToken: "tok_sandbox_success",
        customerRef: null,
        setupFutureUsage: false,
        idempotencyKey: `checkout:${checkout.id}:confirm`,
        metadata: {},
      });
      expect(first).toMatchObject({ status: "succeeded", paymentRef: payments[0].processor_ref });
      expect(await api.knex("idempotency_keys").where({ subject: `checkout:${checkout.id}` })).toHaveLength(0);
      // Settled once: a second pass finds nothing of it.
      await recoverConfirmedCheckouts(api.knex);
      expect(await api.knex("orders").where({ checkout_id: checkout.id })).toHaveLength(1);
    } finally {
      request.abort();
    }
  });

  it("reopens a declined one for another card (its failed payment recorded), and leaves one waiting for 3-D Secure to the processor's webhook", async () => {
    const declined = await polar.checkouts.create({ products: [product.id] });
    const stuck = heldAfterCharge(sandbox);
    setProcessor(stuck.processor);
    const a = confirmInBackground(declined.clientSecret, "tok_sandbox_decline", randomUUID());
    try {
      await expect.poll(() => stuck.held.length, { timeout: 10_000 }).toBe(1);
      await lapse(declined.id);
      setProcessor(sandbox);
      const waiting = await polar.checkouts.create({ products: [product.id] });
      const b = await confirm(waiting.clientSecret, "3ds@example.com", "tok_sandbox_requires_action");
      expect(b.status).toBe(200);
      await lapse(waiting.id);
      await recoverConfirmedCheckouts(api.knex);
      // As after any decline: open again (it has not expired), no confirm state left, one failed payment.
      expect(await statusOf(declined.id)).toBe("open");
      expect(await api.knex("checkouts").where({ id: declined.id }).first("confirmed_at", "confirmation_token_id")).toEqual({
        confirmed_at: null,
        confirmation_token_id: null,
      });
      expect(await api.knex("payments").where({ checkout_id: declined.id, status: "failed" })).toHaveLength(1);
      expect(await api.knex("orders").where({ checkout_id: declined.id })).toHaveLength(0);
      expect(await statusOf(waiting.id)).toBe("confirmed");
      expect(await api.knex("orders").where({ checkout_id: waiting.id })).toHaveLength(0);
    } finally {
      a.abort();
    }
  });

  it("leaves alone a confirm that runs longer than its lease, which it renews, and lets it write its outcome", async () => {
    const saved = process.env.CONFIRM_RECOVERY_AFTER_MS;
    process.env.CONFIRM_RECOVERY_AFTER_MS = "1000";
    try {
      const checkout = await polar.checkouts.create({ products: [product.id] });
      const slow = heldAfterCharge(sandbox);
      setProcessor(slow.processor);
      const answered = confirm(checkout.clientSecret, "slow@example.com", "tok_sandbox_success");
      await expect.poll(() => slow.held.length, { timeout: 10_000 }).toBe(1);
      // Two and a half leases later, still its own.
      await sleep(2_500);
      setProcessor(sandbox);
      expect(await recoverConfirmedCheckouts(api.knex)).toBe(0);
      slow.held[0].pass();
      expect((await answered).status).toBe(200);
      expect(await statusOf(checkout.id)).toBe("succeeded");
    } finally {
      if (saved === undefined) delete process.env.CONFIRM_RECOVERY_AFTER_MS;
      else process.env.CONFIRM_RECOVERY_AFTER_MS = saved;
    }
  });

  it("lets a confirm whose lease lapsed under it write nothing: the recovery that took it over settles it", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const stuck = heldAfterCharge(sandbox);
    setProcessor(stuck.processor);
    const answered = confirm(checkout.clientSecret, "late@example.com", "tok_sandbox_success");
    await expect.poll(() => stuck.held.length, { timeout: 10_000 }).toBe(1);
    await lapse(checkout.id);
    // The recovery takes it over and asks the processor again (held too).
    const recovering = recoverConfirmedCheckouts(api.knex);
    await expect.poll(() => stuck.held.length, { timeout: 10_000 }).toBe(2);

    // The first confirm comes back, its processor call refused: it would reopen the checkout, but
    // the lease is no longer its own.
    stuck.held[0].fail(new ProcessorRefused("No such confirmation token."));
    const first = await answered;
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: "PaymentError", detail: "The checkout changed while it was being confirmed." });
    expect(await statusOf(checkout.id)).toBe("confirmed");
    expect(await api.knex("payments").where({ checkout_id: checkout.id })).toHaveLength(0);

    stuck.held[1].pass();
    expect(await recovering).toBe(1);
    expect(await statusOf(checkout.id)).toBe("succeeded");
    expect(await api.knex("orders").where({ checkout_id: checkout.id })).toMatchObject([{ status: "paid" }]);
    expect((await api.knex("payments").where({ checkout_id: checkout.id })).map((p: { status: string }) => p.status)).toEqual([
      "succeeded",
    ]);
  });

  it("keeps a checkout whose processor answer was lost after the charge confirmed: the recovery finds that charge, nothing charges twice", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const lost = heldAfterCharge(sandbox);
    setProcessor(lost.processor);
    const answered = confirm(checkout.clientSecret, "lost-answer@example.com", "tok_sandbox_success");
    await expect.poll(() => lost.held.length, { timeout: 10_000 }).toBe(1);
    // The charge was made; its answer never arrives (a dropped connection).
    lost.held[0].fail(new Error("socket hang up"));
    const first = await answered;
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: "PaymentError", detail: expect.stringContaining("being confirmed") });
    // Not reopened for another card (which would charge under a new key), and no failed payment.
    expect(await statusOf(checkout.id)).toBe("confirmed");
    expect(await api.knex("payments").where({ checkout_id: checkout.id })).toHaveLength(0);
    const again = await confirm(checkout.clientSecret, "lost-answer@example.com", "tok_sandbox_success");
    expect(again.status).toBe(403);
    // Its lease ended with the lost answer: the recovery asks again with the same key at once.
    setProcessor(sandbox);
    expect(await recoverConfirmedCheckouts(api.knex)).toBeGreaterThanOrEqual(1);
    expect(await statusOf(checkout.id)).toBe("succeeded");
    const payments = await api.knex("payments").where({ checkout_id: checkout.id });
    expect(payments.map((p: { status: string }) => p.status)).toEqual(["succeeded"]);
    const charged = await sandbox.confirmPayment({
      amount: 2500,
      currency: "usd",
      confirmationToken: "tok_sandbox_success",
      customerRef: null,
      setupFutureUsage: false,
      idempotencyKey: `checkout:${checkout.id}:confirm`,
      metadata: {},
    });
    expect(charged).toMatchObject({ status: "succeeded", paymentRef: payments[0].processor_ref });
  });

  it("reopens a checkout whose processor refused the request outright (nothing was charged)", async () => {
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const refusing = Object.assign(Object.create(sandbox) as SandboxProcessor, {
      confirmPayment: async () => {
        throw new ProcessorRefused("No such confirmation token.");
      },
    });
    setProcessor(refusing);
    const res = await confirm(checkout.clientSecret, "refused@example.com", "tok_sandbox_success");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "PaymentError", detail: "The payment could not be processed. Please try again." });
    expect(await statusOf(checkout.id)).toBe("open");
    expect(await api.knex("payments").where({ checkout_id: checkout.id, status: "failed" })).toHaveLength(1);
  });
});
