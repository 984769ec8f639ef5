// The outbox relay end to end: real PostgreSQL, a real Temporal dev server, the real worker.
// Rows written through emit() get published exactly once, rows of rolled-back transactions never
// exist, a signal after commit wakes the relay and so does the commit itself, concurrent claimers never share a row, and a
// restarted or second worker joins the one running relay.
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emit } from "../../server/kit/outbox.js";
import { createOutboxActivities, listenForOutbox } from "../../workflows/activities/outbox.js";
import { outboxRelayWorkflowId } from "../../workflows/shared/ids.js";
import { relayStatsQuery } from "../../workflows/shared/queries.js";
import { outboxSignal } from "../../workflows/shared/signals.js";
import { startWorker, type StartWorkerOptions, type WorkerHandle } from "../../workflows/worker.js";
import { activityDeps, createOrganization, useWorkflowInfra } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const infra = useWorkflowInfra();

// An hour-long idle sleep: within a test, only a signal (or a full batch) can make the relay claim.
const relaySettings = { batchSize: 5, idleSleepMs: 3_600_000 };
const poll = { timeout: 20_000, interval: 100 };

describe("outbox relay", () => {
  let worker: WorkerHandle;
  const workerOptions = (): StartWorkerOptions => ({
    knex: infra.knex,
    temporalAddress: infra.temporalAddress,
    namespace: infra.namespace,
    outboxRelay: relaySettings,
  });
  const relay = () => worker.client.workflow.getHandle(outboxRelayWorkflowId);

  beforeAll(async () => {
    await installPublicationLog(infra.knex);
    worker = await startWorker(workerOptions());
  }, 60_000);
  afterAll(() => worker?.shutdown(), 30_000);

  it("publishes every committed row exactly once, never a rolled-back one, and counts them", async () => {
    const org = await createOrganization(infra.knex);
    const before = await relay().query(relayStatsQuery);

    await infra.knex.transaction(async (trx) => {
      for (let n = 0; n < 23; n++) await emit(trx, org.id, "product.created", { n });
    });
    await expect(
      infra.knex.transaction(async (trx) => {
        await emit(trx, org.id, "organization.updated", { rolledBack: true });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // One signal, 23 rows, batches of 5: full batches are claimed back to back without waiting.
    await relay().signal(outboxSignal);

    await expect.poll(() => unpublished(infra.knex, org.id), poll).toBe(0);
    await expect.poll(async () => (await relay().query(relayStatsQuery)).relayed - before.relayed, poll).toBe(23);

    const rows = await infra.knex("outbox").where({ organization_id: org.id });
    expect(rows).toHaveLength(23);
    expect(rows.every((r) => r.published_at instanceof Date)).toBe(true);
    expect(rows.map((r) => r.payload.data.n).sort((a, b) => a - b)).toEqual([...Array(23).keys()]);
    expect(rows.some((r) => r.type === "organization.updated")).toBe(false);
    expect(await publicationCounts(infra.knex, org.id)).toEqual(
      rows.map((r) => ({ id: Number(r.id), times: 1 })).sort((a, b) => a.id - b.id),
    );
  });

  it("is woken by the commit itself (NOTIFY at commit, the worker's listener signals), never by a rollback", async () => {
    const org = await createOrganization(infra.knex);
    // No explicit signal, and the relay sleeps an hour when idle: only the listener can wake it.
    await infra.knex.transaction((trx) => emit(trx, org.id, "product.updated", { n: 1 }));
    await expect.poll(() => unpublished(infra.knex, org.id), poll).toBe(0);

    let wakes = 0;
    const stop = await listenForOutbox(activityDeps(infra.knex), async () => {
      wakes++;
    });
    try {
      await expect.poll(() => wakes, poll).toBe(1); // the start-up wake-up, for rows committed unheard
      await expect(
        infra.knex.transaction(async (trx) => {
          await emit(trx, org.id, "product.updated", { n: 2 });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      await sleep(300);
      expect(wakes).toBe(1);
      await infra.knex.transaction(async (trx) => {
        await emit(trx, org.id, "product.updated", { n: 3 });
        await emit(trx, org.id, "product.updated", { n: 4 });
      });
      await expect.poll(() => wakes, poll).toBe(2);
    } finally {
      await stop();
    }
  });

  it("hands every row to exactly one of several concurrent claimers", async () => {
    const org = await createOrganization(infra.knex);
    await infra.knex.transaction(async (trx) => {
      for (let n = 0; n < 200; n++) await emit(trx, org.id, "order.created", { n });
    });

    const { claimOutboxBatch } = createOutboxActivities(activityDeps(infra.knex));
    const claimers = Array.from({ length: 6 }, async () => {
      const mine: number[] = [];
      for (;;) {
        const batch = await claimOutboxBatch(7);
        if (batch.ids.length === 0) return mine;
        expect(batch.types).toHaveLength(batch.ids.length);
        mine.push(...batch.ids);
      }
    });
    const claimed = (await Promise.all(claimers)).flat();

    // The commit also woke the worker's relay: it is one more claimer, so the six may not get all.
    const ids = (await infra.knex("outbox").where({ organization_id: org.id }).orderBy("id").pluck("id")).map(Number);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.every((id) => ids.includes(id))).toBe(true);
    expect(claimed.length).toBeGreaterThan(0);
    await expect.poll(() => unpublished(infra.knex, org.id), poll).toBe(0);
    const counts = await publicationCounts(infra.knex, org.id);
    expect(counts.map((c) => c.id)).toEqual(ids);
    expect(counts.every((c) => c.times === 1)).toBe(true);
  });

  it("keeps one relay when the worker restarts and when a second worker joins", async () => {
    const first = await relay().describe();
    expect(first.status.name).toBe("RUNNING");

    await worker.shutdown();
    worker = await startWorker(workerOptions());
    const second = await startWorker(workerOptions());
    try {
      const after = await relay().describe();
      expect(after.runId).toBe(first.runId);
      expect(after.status.name).toBe("RUNNING");
      const running = [];
      for await (const wf of worker.client.workflow.list({
        query: `WorkflowId = '${outboxRelayWorkflowId}' AND ExecutionStatus = 'Running'`,
      })) {
        running.push(wf.runId);
      }
      expect(running).toEqual([first.runId]);

      // The relay still works through the new workers.
      const org = await createOrganization(infra.knex);
      const before = await relay().query(relayStatsQuery);
      await infra.knex.transaction(async (trx) => {
        for (let n = 0; n < 3; n++) await emit(trx, org.id, "customer.created", { n });
      });
      await relay().signal(outboxSignal);
      await expect.poll(() => unpublished(infra.knex, org.id), poll).toBe(0);
      await expect.poll(async () => (await relay().query(relayStatsQuery)).relayed - before.relayed, poll).toBe(3);
    } finally {
      await second.shutdown();
    }
  }, 60_000);
});

async function unpublished(knex: Knex, organizationId: string): Promise<number> {
  const [{ count }] = await knex("outbox").where({ organization_id: organizationId }).whereNull("published_at").count({ count: "*" });
  return Number(count);
}

/**
 * Records every write of published_at, so "published exactly once" is checked on what the
 * database saw, not on the final state (a second claim would just overwrite the timestamp).
 * This database belongs to this file (see infra.ts), so the trigger touches no one else.
 */
async function installPublicationLog(knex: Knex) {
  await knex.raw("create table outbox_publications (outbox_id bigint not null)");
  await knex.raw(`
    create function log_outbox_publication() returns trigger language plpgsql as $$
    begin
      insert into outbox_publications (outbox_id) values (new.id);
      return new;
    end $$`);
  await knex.raw(`
    create trigger outbox_publications after update of published_at on outbox
    for each row when (new.published_at is not null) execute function log_outbox_publication()`);
}

async function publicationCounts(knex: Knex, organizationId: string): Promise<{ id: number; times: number }[]> {
  const { rows } = await knex.raw<{ rows: { id: string; times: string }[] }>(
    `select p.outbox_id as id, count(*) as times
       from outbox_publications p join outbox o on o.id = p.outbox_id
      where o.organization_id = ?
      group by p.outbox_id order by p.outbox_id`,
    [organizationId],
  );
  return rows.map((r) => ({ id: Number(r.id), times: Number(r.times) }));
}
