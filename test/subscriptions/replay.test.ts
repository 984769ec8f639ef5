// Runs recorded before the subscription steps became local activities must still replay on the
// current code (a worker upgraded under a sleeping run): histories recorded from the earlier
// workflow (steps as activity tasks, continue-as-new after each step) on a real dev server —
// one run that renewed and continued as new, and the run after it, woken by a change signal and
// asleep again — replay without a nondeterminism error.
import { readFileSync } from "node:fs";
import { DefaultLogger, IllegalStateError, Runtime, Worker } from "@temporalio/worker";
import { beforeAll, describe, expect, it } from "vitest";
import { workflowsPath } from "../harness/index.js";

const history = (name: string) => JSON.parse(readFileSync(new URL(`./histories/${name}.json`, import.meta.url), "utf8")) as { events: { eventType: string }[] };

describe("subscription workflow: runs recorded by the earlier shape replay", () => {
  beforeAll(() => {
    try {
      Runtime.install({ logger: new DefaultLogger("WARN") });
    } catch (err) {
      if (!(err instanceof IllegalStateError)) throw err;
    }
  });

  const NAMES = ["legacy-renewed-then-continued", "legacy-sleeping-after-signal"];

  it.each(NAMES)("%s is the earlier shape", (name) => {
    const recorded = history(name);
    // What makes them the earlier shape: the step as an activity task, no patch marker.
    expect(recorded.events.map((e) => e.eventType)).toContain("EVENT_TYPE_ACTIVITY_TASK_SCHEDULED");
    expect(recorded.events.map((e) => e.eventType)).not.toContain("EVENT_TYPE_MARKER_RECORDED");
  });

  // One replay worker for all of them: a worker per history lets the SDK shut its runtime down
  // between the two, and the next one races that shutdown.
  it("replays each on the current code without a nondeterminism error", async () => {
    const results: { workflowId: string; error?: unknown }[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath }, NAMES.map((name) => ({ workflowId: name, history: history(name) })))) {
      results.push({ workflowId: result.workflowId, error: result.error });
    }
    expect(results).toEqual(NAMES.map((workflowId) => ({ workflowId, error: undefined })));
  }, 60_000);
});
