// The Temporal worker as a process of its own (`make run` supervises it; production runs several):
// DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, and OTEL_EXPORTER_OTLP_ENDPOINT for traces.
// It exits 1 when it cannot reach Temporal or when its worker stops on its own, so its supervisor
// starts it again (with backoff) until Temporal answers. SIGTERM drains: polling stops, running
// activities get their grace time, then it exits 0.
import { logger } from "../kit/logger.js";
import { startTracing } from "../kit/telemetry.js";
import { processSettings, stopOnSignals } from "./process.js";

const settings = processSettings();
// Before the modules it instruments (http, pg) and the Temporal SDK are loaded.
const tracing = await startTracing(settings.tracing, "worker");
const { createKnex } = await import("../kit/db.js");
const { startWorker } = await import("../../workflows/worker.js");
const knex = createKnex(settings.databaseUrl);
try {
  const worker = await startWorker({
    knex,
    temporalAddress: settings.temporalAddress,
    namespace: settings.temporalNamespace,
    confirmRecovery: settings.confirmRecovery,
  });
  let stopping = false;
  stopOnSignals("worker", settings, async () => {
    stopping = true;
    await worker.shutdown();
    await knex.destroy();
    await tracing?.shutdown();
  });
  const err = await worker.done;
  if (!stopping) {
    logger.error({ err }, "the Temporal worker stopped on its own; exiting so that it is started again");
    process.exit(1);
  }
} catch (err) {
  logger.error({ err }, "worker could not start (is Temporal reachable?)");
  process.exit(1);
}
