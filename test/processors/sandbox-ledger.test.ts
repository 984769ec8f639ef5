// The sandbox's durable idempotency: processors sharing a ledger directory (as a killed worker and
// the one that replaces it do) answer a key with the first answer, whoever asks and however many
// ask at once; the charge is made once. Without a ledger each process remembers only its own.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChargeSavedInput } from "../../server/processors/processor.js";
import { readSandboxLedger, SandboxProcessor } from "../../server/processors/sandbox.js";

const charge = (key: string, amount = 1200): ChargeSavedInput => ({
  amount,
  currency: "usd",
  customerRef: null,
  paymentMethodRef: "pm_sandbox_4242424242424242_ledger",
  idempotencyKey: key,
  metadata: {},
});

describe("sandbox ledger", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sandbox-ledger-test-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("answers a key once across processors: concurrent askers and a later one get the first answer", async () => {
    const a = new SandboxProcessor({ ledgerDir: dir });
    const b = new SandboxProcessor({ ledgerDir: dir });
    const answers = await Promise.all([
      a.chargeSaved(charge("k1")),
      b.chargeSaved(charge("k1")),
      a.chargeSaved(charge("k1")),
      b.chargeSaved(charge("k1")),
    ]);
    expect(new Set(answers.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: "succeeded" });
    expect(a.charges.length + b.charges.length).toBe(1);

    // A processor started later (a new process) finds it and charges nothing.
    const later = new SandboxProcessor({ ledgerDir: dir });
    expect(await later.chargeSaved(charge("k1", 9999))).toEqual(answers[0]);
    expect(later.charges).toHaveLength(0);

    const entries = await readSandboxLedger(dir);
    expect(entries.map((e) => [e.key, e.charge?.amount])).toEqual([["charge:k1", 1200]]);
    // Nothing half-written is left beside the entry.
    expect(await readdir(dir)).toHaveLength(1);
  });

  it("keeps other answers too (confirmations, refunds) and tells charges apart by key", async () => {
    const a = new SandboxProcessor({ ledgerDir: dir });
    await a.chargeSaved(charge("k1"));
    await a.chargeSaved(charge("k2", 500));
    const refund = await a.refund({ paymentRef: "pi_x", amount: 100, idempotencyKey: "r1" });
    const b = new SandboxProcessor({ ledgerDir: dir });
    expect(await b.refund({ paymentRef: "pi_x", amount: 100, idempotencyKey: "r1" })).toEqual(refund);
    const entries = await readSandboxLedger(dir);
    expect(entries.map((e) => e.key).sort()).toEqual(["charge:k1", "charge:k2", "refund:r1"]);
    expect(
      entries
        .filter((e) => e.charge)
        .map((e) => e.charge!.amount)
        .sort(),
    ).toEqual([1200, 500]);
  });

  it("holds every charge's answer back after recording it when told to: off-session charges and checkout confirms", async () => {
    const slow = new SandboxProcessor({ ledgerDir: dir, chargeDelayMs: 300 });
    const charges = [
      () => slow.chargeSaved(charge("k1")),
      () =>
        slow.confirmPayment({
          amount: 1200,
          currency: "usd",
          confirmationToken: "tok_sandbox_success",
          customerRef: null,
          setupFutureUsage: false,
          idempotencyKey: "c1",
          metadata: {},
        }),
    ];
    for (const [i, made] of charges.entries()) {
      const started = Date.now();
      const pending = made();
      await expect.poll(async () => (await readSandboxLedger(dir)).length, { timeout: 250, interval: 10 }).toBe(i + 1);
      await pending;
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    }
  });

  it("without a ledger, each processor remembers only its own keys", async () => {
    const a = new SandboxProcessor({ ledgerDir: null });
    const b = new SandboxProcessor({ ledgerDir: null });
    await a.chargeSaved(charge("k1"));
    await a.chargeSaved(charge("k1"));
    await b.chargeSaved(charge("k1"));
    expect([a.charges.length, b.charges.length]).toEqual([1, 1]);
    expect(await readSandboxLedger(dir)).toEqual([]);
  });
});
