// The lifecycle of one subscription (workflow id `subscription:<id>`): it asks the database what is
// due next (renewal, end, dunning retry, a charge in flight), sleeps until then or until a test
// clock advances, and runs the step as an idempotent local activity, then continues as new, so a
// cycle costs two workflow tasks and histories stay short. `subscriptionChanged` makes it look
// again. "Now" is the workflow's clock, or the test clock's. docs/SUBSCRIPTIONS.md.
import { condition, continueAsNew, proxyLocalActivities, setHandler } from "@temporalio/workflow";
import type { SubscriptionActivities } from "../activities/subscriptions.js";
import { subscriptionChangedSignal } from "../shared/signals.js";

type NextStep = Awaited<ReturnType<SubscriptionActivities["nextSubscriptionStep"]>>;

export interface SubscriptionWorkflowInput {
  subscriptionId: string;
  /**
   * How long one step may run before Temporal gives it up and retries it (on another worker when
   * the one running it died). 2 minutes unless told; tests that kill a worker make it short.
   */
  stepTimeoutMs?: number;
  /** What is due next, as the step before continue-as-new found it. */
  next?: NextStep;
}

const DEFAULT_STEP_TIMEOUT_MS = 120_000;
// The steps are idempotent (row locks, re-checks, a unique order per period, charges keyed by
// order and attempt): retry until the database and the processor are reachable again.
const STEP_RETRY = { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "5 minutes" } as const;

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<void> {
  const { nextSubscriptionStep, runSubscriptionStep } = proxyLocalActivities<SubscriptionActivities>({
    startToCloseTimeout: input.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
    retry: STEP_RETRY,
  });
  let changed = false;
  setHandler(subscriptionChangedSignal, () => {
    changed = true;
  });
  let known = input.next;
  for (;;) {
    let next: NextStep;
    if (known && !changed) {
      next = known;
    } else {
      changed = false;
      next = await nextSubscriptionStep(input.subscriptionId);
    }
    known = undefined; // a wake-up below asks the database again
    if (next.kind === "done") return;
    if (next.clock) {
      // On a test clock, time moves only when the merchant advances it (a signal).
      if (next.clockNow === null || next.clockNow < next.dueAt) {
        await condition(() => changed);
        continue;
      }
    } else {
      const wait = next.dueAt - Date.now();
      // A change may move the due time (uncancel, new payment method): look again.
      if (wait > 0 && (await condition(() => changed, wait))) continue;
    }
    changed = false;
    const done = await runSubscriptionStep(input.subscriptionId, Date.now());
    // A signal that arrived during the step may have changed what is due: the next run asks again.
    return continueAsNew<typeof subscriptionWorkflow>(Object.assign({}, input, { next: changed ? undefined : done.next }));
  }
}
