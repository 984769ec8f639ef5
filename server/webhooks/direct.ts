// Direct runs: the first attempts at an idle endpoint's new events, made by the worker that fanned
// them out right after the commit, without a workflow, under the endpoint's delivery lease
// (repository.ts, leaseIdleEndpoints). A healthy endpoint costs Temporal nothing. What does not
// deliver at once is handed to the endpoint's workflow; if the worker dies, the lease expires and
// the backstop sweep (workflows/backstop.ts) starts that workflow.
import type { Knex } from "knex";
import { logger } from "../kit/logger.js";
import { deliverQueued, DELIVERY_LEASE_MS, settleEvent, type QueuedEvent, type QueueRunOptions } from "./delivery.js";
import { listeningStop } from "./listeners.js";
import { releaseDeliveryLease, renewDeliveryLease, type EventWithEndpoint } from "./repository.js";

/** Wakes the endpoint's workflow; with `failed`, that event's first attempt was made and failed. */
export type HandOver = (endpointId: string, failed?: QueuedEvent) => Promise<void>;

export interface DirectDeliveryOptions extends Pick<QueueRunOptions, "timeoutMs" | "maxListeners" | "disableAfterMs"> {
  /** How long a run listens for the endpoint's next events once its queue is empty (5 s). */
  listenMs?: number;
  /** The lease the fan-out takes, renewed before each run (DELIVERY_LEASE_MS). */
  leaseMs?: number;
}

export class DirectDeliveries {
  readonly leaseMs: number;
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = listeningStop();

  constructor(
    private readonly knex: Knex,
    private readonly opts: DirectDeliveryOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? DELIVERY_LEASE_MS;
  }

  /**
   * After the fan-out's commit: one background run per endpoint whose lease it took as `lease`,
   * starting with the head the fan-out read (leasedHeads), if given, instead of reading it again.
   */
  start(endpointIds: string[], lease: string, handOver: HandOver, heads?: Map<string, EventWithEndpoint>): void {
    for (const endpointId of endpointIds) {
      const run: Promise<void> = this.run(endpointId, lease, handOver, heads?.get(endpointId)).finally(() => this.runs.delete(run));
      this.runs.add(run);
    }
  }

  /** Runs in progress (tests, diagnostics). */
  get size(): number {
    return this.runs.size;
  }

  /** Ends the listening waits, hands what is left to the workflows and waits for the runs. */
  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.runs]);
  }

  private async run(endpointId: string, lease: string, handOver: HandOver, head?: EventWithEndpoint): Promise<void> {
    const { knex, opts } = this;
    try {
      for (let first = true; ; first = false) {
        // Lost (a pause longer than the lease, and another run took the endpoint): stop at once.
        if (!first && !(await renewDeliveryLease(knex, endpointId, lease, this.leaseMs))) return;
        if (this.stopping.signal.aborted) return await handOver(endpointId);
        const run = await deliverQueued(
          knex,
          endpointId,
          Object.assign({}, opts, {
            listenMs: opts.listenMs ?? 5_000,
            lease,
            signal: this.stopping.signal,
            head: first ? head : undefined,
          }),
        );
        if (run.head?.outcome === "failed") return await handOver(endpointId, run.head);
        // Gone, disabled or skipped: the queue stops, as in the workflow.
        if (run.head) return await settleEvent(knex, run.head);
        // Empty (the lease given up) or, busy, out of budget: another run at once.
        if (!run.more) return;
      }
    } catch (err) {
      logger.warn({ err, endpointId }, "direct webhook run failed; its endpoint's workflow takes the queue over");
      await handOver(endpointId).catch((e: unknown) =>
        logger.warn({ err: e, endpointId }, "hand-over failed; the backstop sweep starts the workflow once the lease expires"),
      );
    } finally {
      await releaseDeliveryLease(knex, endpointId, lease).catch((err: unknown) =>
        logger.warn({ err, endpointId }, "could not give the delivery lease up; it expires"),
      );
    }
  }
}
