// A confirm caught by a crash settles in seconds (docs/RELIABILITY.md): the API and worker run as
// in production over this file's own PostgreSQL, and SANDBOX_CHARGE_DELAY_MS catches a confirm
// between charge and outcome. Killing the API there, or restarting PostgreSQL there, the worker
// completes the checkout within 20 s, with one order and one payment for the sandbox's one charge.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Polar } from "@polar-sh/sdk";
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR, freePort, startPostgres, type PostgresHandle } from "../../scripts/services.js";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import { readSandboxLedger } from "../../server/processors/sandbox.js";
import { createCheckoutProduct, orgWithToken, registerNamespace, startProcess, stopProcess } from "../harness/index.js";

/** From the crash (or PostgreSQL's return) to the checkout succeeded: a budget for a loaded machine, not a benchmark. */
const SETTLED_WITHIN_MS = 20_000;

describe("a confirm caught by a crash", () => {
  const dataDir = path.join(DATA_DIR, `recover-crash-pg-${process.pid}`);
  let port: number;
  let pg: PostgresHandle | undefined;
  let knex: Knex;
  let ledgerDir: string;
  let env: NodeJS.ProcessEnv;
  let worker: ChildProcess | undefined;
  let token: string;
  let productId: string;

  const startOwnPostgres = () => startPostgres({ dataDir, port, persistent: true, ignoreEnv: true });

  beforeAll(async () => {
    port = await freePort();
    pg = await startOwnPostgres();
    knex = createKnex(pg.url);
    await migrateLatest(knex);
    const temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!temporalAddress) throw new Error("TEMPORAL_ADDRESS is not set (test/setup/global.ts starts Temporal)");
    // A namespace of its own: this worker serves no other file's workflows.
    const namespace = `recover-crash-${randomUUID().slice(0, 8)}`;
    await registerNamespace(temporalAddress, namespace);
    ledgerDir = await mkdtemp(path.join(tmpdir(), "sandbox-ledger-"));
    env = {
      ...process.env,
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      SANDBOX_LEDGER_DIR: ledgerDir,
    };
    worker = (await startProcess("worker", env, (l) => l.msg === "Temporal worker running")).child;
    const made = await orgWithToken(knex);
    token = made.token;
    productId = (await createCheckoutProduct(knex, made.org.id, { name: "Caught" })).product.id;
  }, 180_000);

  afterAll(async () => {
    await stopProcess(worker);
    await knex?.destroy();
    await pg?.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (ledgerDir) await rm(ledgerDir, { recursive: true, force: true });
  }, 60_000);

  /** An API process whose charges answer `chargeDelayMs` after they are made. */
  const startApi = async (chargeDelayMs: number) => {
    const { child, line } = await startProcess(
      "api",
      { ...env, PORT: "0", SANDBOX_CHARGE_DELAY_MS: String(chargeDelayMs) },
      (l) => l.msg === "api listening",
    );
    return { child, url: String(line.url) };
  };

  /** A checkout through the API, and its confirm sent without waiting: the confirm's HTTP status, or "no answer". */
  const checkoutConfirming = async (url: string) => {
    const checkout = await new Polar({ accessToken: token, serverURL: url }).checkouts.create({ products: [productId] });
    const answer = fetch(`${url}/v1/checkouts/client/${checkout.clientSecret}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        customer_email: "caught@example.com",
        customer_billing_address: { country: "FR" },
        confirmation_token_id: "tok_sandbox_success",
      }),
    }).then(
      (res) => res.status,
      () => "no answer" as const,
    );
    return { id: checkout.id, answer };
  };

  const chargesOf = async (checkoutId: string) =>
    (await readSandboxLedger(ledgerDir)).filter((e) => e.key.startsWith(`confirm:checkout:${checkoutId}:`));
  const statusOf = async (id: string) => ((await knex("checkouts").where({ id }).first("status")) as { status: string }).status;

  /** Caught: charged, still confirmed, no order. */
  const expectCaught = async (checkoutId: string) => {
    await expect.poll(async () => (await chargesOf(checkoutId)).length, { timeout: 30_000, interval: 50 }).toBe(1);
    expect(await statusOf(checkoutId)).toBe("confirmed");
    expect(await knex("orders").where({ checkout_id: checkoutId })).toHaveLength(0);
  };

  /** Succeeded within the budget, with one order and one payment, the sandbox's one charge. */
  const expectSettled = async (checkoutId: string, since: number) => {
    await expect.poll(() => statusOf(checkoutId), { timeout: SETTLED_WITHIN_MS, interval: 200 }).toBe("succeeded");
    expect(Date.now() - since).toBeLessThan(SETTLED_WITHIN_MS);
    expect(await knex("orders").where({ checkout_id: checkoutId })).toMatchObject([{ status: "paid" }]);
    const payments = await knex("payments").where({ checkout_id: checkoutId });
    const charges = await chargesOf(checkoutId);
    expect(charges).toHaveLength(1);
    expect(payments.map((p: { status: string; processor_ref: string }) => [p.status, p.processor_ref])).toEqual([
      ["succeeded", (charges[0].value as { paymentRef: string }).paymentRef],
    ]);
  };

  it("settles a checkout whose API process was killed mid-charge within seconds", async () => {
    const api = await startApi(600_000);
    try {
      const checkout = await checkoutConfirming(api.url);
      await expectCaught(checkout.id);
      api.child.kill("SIGKILL");
      const killedAt = Date.now();
      expect(await checkout.answer).toBe("no answer");
      await expectSettled(checkout.id, killedAt);
    } finally {
      api.child.kill("SIGKILL");
    }
  }, 120_000);

  it("settles a checkout whose outcome PostgreSQL could not write (a restart) within seconds of its return", async () => {
    const api = await startApi(2_000);
    try {
      const checkout = await checkoutConfirming(api.url);
      await expectCaught(checkout.id);
      await pg!.stop();
      // Down until the confirm has tried to write its outcome and failed.
      expect(await checkout.answer).toBe(500);
      pg = await startOwnPostgres();
      const backAt = Date.now();
      await expectSettled(checkout.id, backAt);
    } finally {
      await stopProcess(api.child);
    }
  }, 120_000);
});
