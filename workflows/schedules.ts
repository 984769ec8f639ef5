// The worker's periodic work, as Temporal Schedules (visible in the Temporal UI): created by every
// worker at start-up, updated to its settings when they exist, and triggered once so a freshly
// started worker does not wait an interval for the first pass. One run at a time each; a run
// triggered or due meanwhile waits behind the running one.
import { ScheduleAlreadyRunning, type Client, type ScheduleOptionsAction, type ScheduleSpec } from "@temporalio/client";
import {
  backstopSweepScheduleId,
  confirmRecoveryScheduleId,
  emailRemindersScheduleId,
  idempotencyKeyCleanupScheduleId,
  usageFoldScheduleId,
} from "./shared/ids.js";
import { emailRemindersWorkflow } from "./workflows/email-reminders.js";
import { backstopSweepWorkflow, confirmRecoveryWorkflow, idempotencyKeyCleanupWorkflow, usageFoldWorkflow } from "./workflows/periodic.js";

/** How often the periodic emails run: reminders are due by the day, an hour late is on time. */
const EMAIL_REMINDERS_EVERY_MS = 60 * 60_000;
const KEY_CLEANUP_EVERY_MS = 60 * 60_000;
/** The shortest Schedule interval: work due more often makes several passes per run. */
const RUN_EVERY_MS = 60_000;

export interface PeriodicSettings {
  /** Time between backstop sweeps (default 1 minute). */
  backstopEveryMs?: number;
  /** Time between confirm recovery passes (CONFIRM_RECOVERY_EVERY_MS; default 2 s). */
  confirmRecoveryEveryMs?: number;
  /** Time between usage folds (default 1 s; 0: never). */
  usageFoldEveryMs?: number;
}

/**
 * Creates the periodic emails' Schedule (`email-reminders`: every hour) unless it exists: a
 * restarted (or second) worker keeps the one there is.
 */
export async function ensureEmailReminderSchedule(client: Client, taskQueue: string): Promise<void> {
  const action = { type: "startWorkflow", workflowType: emailRemindersWorkflow, taskQueue, args: [] } as const;
  await ensureSchedule(client, emailRemindersScheduleId, EMAIL_REMINDERS_EVERY_MS, action, { update: false });
}

/** Ensures every periodic Schedule of the worker and triggers each once. */
export async function ensurePeriodicSchedules(client: Client, taskQueue: string, settings: PeriodicSettings = {}): Promise<void> {
  await ensureEmailReminderSchedule(client, taskQueue);
  const ids: string[] = [backstopSweepScheduleId, idempotencyKeyCleanupScheduleId, confirmRecoveryScheduleId];
  await ensureSchedule(client, backstopSweepScheduleId, settings.backstopEveryMs ?? 60_000, {
    type: "startWorkflow",
    workflowType: backstopSweepWorkflow,
    taskQueue,
    args: [],
  });
  await ensureSchedule(client, idempotencyKeyCleanupScheduleId, KEY_CLEANUP_EVERY_MS, {
    type: "startWorkflow",
    workflowType: idempotencyKeyCleanupWorkflow,
    taskQueue,
    args: [],
  });
  const recoveryEveryMs = settings.confirmRecoveryEveryMs ?? 2_000;
  const recoveryRunMs = Math.max(recoveryEveryMs, RUN_EVERY_MS);
  await ensureSchedule(client, confirmRecoveryScheduleId, recoveryRunMs, {
    type: "startWorkflow",
    workflowType: confirmRecoveryWorkflow,
    taskQueue,
    args: [{ everyMs: recoveryEveryMs, forMs: recoveryRunMs }],
  });
  const foldEveryMs = settings.usageFoldEveryMs ?? 1_000;
  if (foldEveryMs > 0) {
    const foldRunMs = Math.max(foldEveryMs, RUN_EVERY_MS);
    await ensureSchedule(client, usageFoldScheduleId, foldRunMs, {
      type: "startWorkflow",
      workflowType: usageFoldWorkflow,
      taskQueue,
      args: [{ everyMs: foldEveryMs, forMs: foldRunMs }],
    });
    ids.push(usageFoldScheduleId);
  }
  await Promise.all(ids.map((id) => client.schedule.getHandle(id).trigger("BUFFER_ONE")));
}

/** Creates the Schedule, or (unless `update` is false) sets an existing one's interval and action to these. */
async function ensureSchedule(
  client: Client,
  scheduleId: string,
  everyMs: number,
  action: ScheduleOptionsAction,
  opts = { update: true },
): Promise<void> {
  const spec: ScheduleSpec = { intervals: [{ every: everyMs }] };
  const policies = { overlap: "BUFFER_ONE", catchupWindow: everyMs } as const;
  try {
    await client.schedule.create({ scheduleId, spec, action, policies });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    if (opts.update) await client.schedule.getHandle(scheduleId).update((prev) => Object.assign({}, prev, { spec, action, policies }));
  }
}
