// A supervised process in small, for supervised-exit.test.ts: the stop of server/cli/process.ts
// with `supervised` on, and nothing else running; prints "stopped" when it drains.
import { stopOnSignals } from "../../server/cli/process.js";

stopOnSignals(
  "child",
  {
    databaseUrl: "",
    temporalAddress: "",
    temporalNamespace: "default",
    port: 0,
    host: "127.0.0.1",
    drainMs: 5_000,
    drainDelayMs: 0,
    supervised: true,
    confirmRecovery: {},
    tracing: null,
  },
  async () => {
    process.stdout.write("stopped\n");
  },
);
// Work of its own that would keep it running for a minute.
setTimeout(() => {}, 60_000);
process.stdout.write("ready\n");
