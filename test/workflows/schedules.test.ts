// The worker's periodic work runs on Temporal Schedules it creates at start-up (workflows/schedules.ts),
// visible in Temporal: each exists with the interval it was given, and the start-up trigger runs
// the one-pass jobs at once (the clean-up deletes an expired idempotency key) and starts the
// repeating ones (confirm recovery, usage fold), which keep making passes within a run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backstopSweepScheduleId,
  confirmRecoveryScheduleId,
  emailRemindersScheduleId,
  idempotencyKeyCleanupScheduleId,
  usageFoldScheduleId,
} from "../../workflows/shared/ids.js";
import { startWorker, type WorkerHandle } from "../../workflows/worker.js";
import { useWorkflowInfra } from "../harness/index.js";

const infra = useWorkflowInfra();
const poll = { timeout: 30_000, interval: 200 };

describe("periodic work on Temporal Schedules", () => {
  let worker: WorkerHandle;
  const key = `expired-${Date.now()}`;

  beforeAll(async () => {
    await infra
      .knex("idempotency_keys")
      .insert({ scope: "schedules-test", key_hash: key, fingerprint: "f", operation: "op", expires_at: new Date(Date.now() - 1_000) });
    worker = await startWorker({
      knex: infra.knex,
      temporalAddress: infra.temporalAddress,
      namespace: infra.namespace,
      backstop: { everyMs: 30_000 },
      confirmRecovery: { everyMs: 300 },
      usageFoldEveryMs: 200,
    });
  }, 60_000);
  afterAll(() => worker?.shutdown(), 30_000);

  it("creates every Schedule with its interval", async () => {
    const every = async (id: string) => {
      const { spec } = await worker.client.schedule.getHandle(id).describe();
      return spec.intervals?.map((i) => i.every);
    };
    expect(await every(emailRemindersScheduleId)).toEqual([3_600_000]);
    expect(await every(idempotencyKeyCleanupScheduleId)).toEqual([3_600_000]);
    expect(await every(backstopSweepScheduleId)).toEqual([30_000]);
    // Passes due every few hundred ms: one run a minute makes them.
    expect(await every(confirmRecoveryScheduleId)).toEqual([60_000]);
    expect(await every(usageFoldScheduleId)).toEqual([60_000]);
  });

  it("runs the clean-up at start-up: the expired key is deleted", async () => {
    await expect.poll(async () => (await infra.knex("idempotency_keys").where({ key_hash: key })).length, poll).toBe(0);
  });

  it("runs the backstop sweep at start-up, and the repeating jobs make pass after pass within one run", async () => {
    const started = async (id: string) => {
      const actions = (await worker.client.schedule.getHandle(id).describe()).info.recentActions;
      return actions[0]?.action.workflow.workflowId;
    };
    await expect.poll(() => started(backstopSweepScheduleId), poll).toBeTruthy();
    await worker.client.workflow.getHandle((await started(backstopSweepScheduleId))!).result();
    for (const id of [confirmRecoveryScheduleId, usageFoldScheduleId]) {
      await expect.poll(() => started(id), poll).toBeTruthy();
      const run = worker.client.workflow.getHandle((await started(id))!);
      const passes = async () => (await run.fetchHistory()).events?.filter((e) => e.markerRecordedEventAttributes).length ?? 0;
      await expect.poll(passes, poll).toBeGreaterThanOrEqual(3);
    }
  }, 60_000);
});
