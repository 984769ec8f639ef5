// What the API and worker processes share: their settings from the environment, a stop on
// SIGTERM / SIGINT that drains first (a second signal exits at once), and, when a supervisor
// started them (`make run`), an exit when that supervisor is gone (its IPC channel closes), so a
// supervisor killed with SIGKILL leaves no orphan behind.
import { loadConfig, type Env } from "../config.js";
import { logger } from "../kit/logger.js";
import { tracingSettings, type TracingSettings } from "../kit/telemetry.js";

export interface ProcessSettings {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** API only: where to listen. */
  port: number;
  host: string;
  /** How long a drain may take before the process exits anyway (DRAIN_TIMEOUT_MS). */
  drainMs: number;
  /** API only: how long /readyz answers 503 before the server stops accepting connections (DRAIN_DELAY_MS; a load balancer's health-check interval). */
  drainDelayMs: number;
  supervised: boolean;
  /** Worker only: how often confirms that died after their claim are looked for (CONFIRM_RECOVERY_EVERY_MS). */
  confirmRecovery: { everyMs?: number };
  /** OpenTelemetry traces (server/kit/telemetry.ts): null, off, unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing: TracingSettings | null;
}

/** The settings of `env` (the process's by default); every variable is validated here, so a bad one stops the process at start. */
export function processSettings(env?: Env): ProcessSettings {
  const config = loadConfig(env);
  const need = (name: "DATABASE_URL" | "TEMPORAL_ADDRESS") => {
    const v = config[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  return {
    databaseUrl: need("DATABASE_URL"),
    temporalAddress: need("TEMPORAL_ADDRESS"),
    temporalNamespace: config.TEMPORAL_NAMESPACE,
    port: config.PORT,
    host: config.HOST,
    drainMs: config.DRAIN_TIMEOUT_MS,
    drainDelayMs: config.DRAIN_DELAY_MS,
    supervised: config.BOREALIS_SUPERVISED,
    confirmRecovery: { everyMs: config.CONFIRM_RECOVERY_EVERY_MS },
    tracing: tracingSettings(env),
  };
}

/**
 * Calls `stop` once on SIGTERM / SIGINT (or when the supervisor is gone), then exits 0; exits 1
 * if it throws or takes longer than `drainMs`. A second signal exits at once.
 */
export function stopOnSignals(name: string, settings: ProcessSettings, stop: () => Promise<void>): void {
  let stopping = false;
  const begin = (why: string) => {
    if (stopping) {
      logger.warn({ why }, `${name}: asked again; exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.info({ why }, `${name}: draining`);
    setTimeout(() => {
      logger.error(`${name}: drain took longer than ${settings.drainMs} ms; exiting`);
      process.exit(1);
    }, settings.drainMs).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, `${name}: stopping failed`);
        process.exit(1);
      },
    );
  };
  for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => begin(sig));
  // The supervisor spawns with an IPC channel (scripts/supervisor.ts): it closes when the
  // supervisor dies, however it died. Unref'd, so the channel alone keeps nothing running.
  if (settings.supervised && process.channel) {
    process.channel.unref();
    process.once("disconnect", () => begin("supervisor gone"));
  }
}
