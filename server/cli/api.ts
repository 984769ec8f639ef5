// The API as a process of its own (`make run` supervises it; production runs several):
// DATABASE_URL, TEMPORAL_ADDRESS, PORT, HOST, and OTEL_EXPORTER_OTLP_ENDPOINT for traces. It
// starts whether or not PostgreSQL and Temporal answer yet (/readyz says when it can serve) and
// rides out their restarts. SIGTERM drains: /readyz turns 503, in-flight requests finish, then it
// exits 0.
import { logger } from "../kit/logger.js";
import { startTracing } from "../kit/telemetry.js";
import { processSettings, stopOnSignals } from "./process.js";

const settings = processSettings();
// Before the modules it instruments (http, pg) and the Temporal client are loaded.
const tracing = await startTracing(settings.tracing, "api");
const { createKnex } = await import("../kit/db.js");
const { startApi } = await import("../main.js");
const knex = createKnex(settings.databaseUrl);
try {
  const api = await startApi({ knex, port: settings.port, host: settings.host, temporalAddress: settings.temporalAddress });
  stopOnSignals("api", settings, async () => {
    await api.close(settings.drainMs - settings.drainDelayMs - 1_000, settings.drainDelayMs);
    await knex.destroy();
    await tracing?.shutdown();
  });
} catch (err) {
  logger.fatal({ err }, "api could not start");
  process.exit(1);
}
