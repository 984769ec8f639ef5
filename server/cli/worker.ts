// The Temporal worker as a process of its own (`make run` supervises it; production runs several):
// DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE. It exits 1 when it cannot reach Temporal
// or when its worker stops on its own, so its supervisor starts it again (with backoff) until
// Temporal answers. SIGTERM drains: polling stops, running activities get their grace time,
// then it exits 0.
import { createKnex } from "../kit/db.js";
import { logger } from "../kit/logger.js";
import { startWorker } from "../../workflows/worker.js";
import { processSettings, stopOnSignals } from "./process.js";

const settings = processSettings();
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
