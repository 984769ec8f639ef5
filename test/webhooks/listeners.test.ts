// The in-process hand-over between the fan-out and an endpoint's listening run of first attempts
// (server/webhooks/listeners.ts): a poke reaches only an open listener, a poke that lands while
// the run reads its queue keeps it open for one more read, and a closed listener is never poked
// (the caller then signals the workflow).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  closeListener,
  dropListener,
  listeningStop,
  openListener,
  openListeners,
  pokeListener,
  waitForPoke,
} from "../../server/webhooks/listeners.js";
import { sleep } from "../../server/kit/time.js";

describe("webhook endpoint listeners", () => {
  it("hands a poke to the open listener only, and answers false when there is none", async () => {
    const id = randomUUID();
    expect(pokeListener(id)).toBe(false);
    const l = openListener(id, 10)!;
    expect(l).not.toBeNull();
    const waiting = waitForPoke(l, 5_000);
    expect(pokeListener(id)).toBe(true);
    await expect(waiting).resolves.toBe(true);
    expect(pokeListener(randomUUID())).toBe(false);
    l.poked = false;
    expect(closeListener(l)).toBe(true);
    expect(pokeListener(id)).toBe(false);
  });

  it("does not close after a poke that came since the last read began: the run reads again", () => {
    const id = randomUUID();
    const l = openListener(id, 10)!;
    l.poked = false; // the run clears it, then reads the queue (empty) …
    expect(pokeListener(id)).toBe(true); // … while an event commits and is handed over
    expect(closeListener(l)).toBe(false);
    expect(pokeListener(id)).toBe(true); // still open
    l.poked = false; // the next read saw the event
    expect(closeListener(l)).toBe(true);
  });

  it("times out without a poke, and an abort ends the wait at once", async () => {
    const l = openListener(randomUUID(), 10)!;
    try {
      const started = Date.now();
      await expect(waitForPoke(l, 50)).resolves.toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      const abort = new AbortController();
      const waiting = waitForPoke(l, 60_000, abort.signal);
      abort.abort();
      await expect(waiting).resolves.toBe(false);
      expect(l.wake).toBeNull();
    } finally {
      dropListener(l);
    }
  });

  it("lets 50 listeners wait on one stop signal without Node's memory-leak warning, and the stop ends them all", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    const stop = listeningStop();
    const ls = Array.from({ length: 50 }, () => openListener(randomUUID(), openListeners() + 1)!);
    try {
      const waits = ls.map((l) => waitForPoke(l, 60_000, stop.signal));
      await sleep(20); // Node emits the warning on a later tick
      stop.abort();
      await expect(Promise.all(waits)).resolves.toEqual(ls.map(() => false));
      await sleep(20);
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      for (const l of ls) dropListener(l);
    }
  });

  it("keeps one listener per endpoint and at most the cap open", () => {
    const before = openListeners();
    const a = openListener(randomUUID(), before + 2)!;
    const b = openListener(randomUUID(), before + 2)!;
    try {
      expect(openListener(a.endpointId, before + 10)).toBeNull(); // a run that outlived its task keeps it
      expect(openListener(randomUUID(), before + 2)).toBeNull(); // the cap
      expect(openListeners()).toBe(before + 2);
    } finally {
      dropListener(a);
      dropListener(b);
    }
    expect(openListeners()).toBe(before);
  });
});
