// The lifecycle of one subscription (workflow id `subscription:<id>`), for as long as it lives.
// It only decides when: it asks the database what is due next (a renewal at period end, the end of
// a subscription canceled at period end, a dunning retry, a charge left in flight), sleeps until
// then — or, for a customer on a billing test clock, waits for the clock to be advanced — and runs
// the due step as an idempotent activity. A `subscriptionChanged` signal makes it look again.
//
// The steps run as LOCAL activities, inside the workflow task that the timer wakes, and that same
// task continues as new: a cycle costs Temporal two workflow tasks (this one and the new run's
// first), not three, an activity task and a new run. Continuing as new each cycle keeps every
// run's history a few events long. The step tells what is due after it, so the new run goes
// straight back to sleep without asking the database again, unless a signal came in meanwhile.
// A worker that dies mid-step loses its workflow task; Temporal hands the task to another worker
// once it times out, and that worker runs the step again (idempotent: row locks, a unique order
// per period, charges keyed by order and attempt).
//
// "Now" for a step is this workflow's clock (deterministic, and skipped time counts in tests),
// or the test clock's frozen time, which the activity reads itself.
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
