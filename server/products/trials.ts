// A trial as a body gives it (a product's, a checkout's or a checkout link's): an interval and a
// count, set together or cleared together with nulls.
import { invalid } from "../kit/errors.js";
import type { Interval } from "./repository.js";

export interface TrialInput {
  trial_interval?: Interval | null;
  trial_interval_count?: number | null;
}

export interface Trial {
  trial_interval: Interval | null;
  trial_interval_count: number | null;
}

/** The trial `input` sets (both null clears it), or undefined when it gives neither field. */
export function givenTrial(input: TrialInput): Trial | undefined {
  if (input.trial_interval === undefined && input.trial_interval_count === undefined) return undefined;
  const interval = input.trial_interval ?? null;
  const count = input.trial_interval_count ?? null;
  if ((interval === null) !== (count === null)) {
    throw invalid(
      ["body", interval === null ? "trial_interval" : "trial_interval_count"],
      "Both trial_interval and trial_interval_count must be set together.",
      "missing",
    );
  }
  return { trial_interval: interval, trial_interval_count: count };
}
