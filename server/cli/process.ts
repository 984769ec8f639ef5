// What the API and worker processes share: their settings from the environment, a stop on
// SIGTERM / SIGINT that drains first (a second signal exits at once), and, when a supervisor
// started them (`make run`), an exit when that supervisor is gone, so a supervisor killed with
// SIGKILL leaves no orphan behind.
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
  /** Worker only: confirms that died after their claim are settled once this old, looked for this often (CONFIRM_RECOVERY_AFTER_MS, _EVERY_MS). */
  confirmRecovery: { olderThanMs?: number; everyMs?: number };
  /** OpenTelemetry traces (server/kit/telemetry.ts): null, off, unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing: TracingSettings | null;
}

export function processSettings(env: NodeJS.ProcessEnv = process.env): ProcessSettings {
  const need = (name: string) => {
    const v = env[name];
    if (!v) throw new Error(`${name} is not set`);
    return v;
  };
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    databaseUrl: need("DATABASE_URL"),
    temporalAddress: need("TEMPORAL_ADDRESS"),
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? "default",
    port,
    host: env.HOST ?? "127.0.0.1",
    drainMs: Number(env.DRAIN_TIMEOUT_MS ?? 25_000),
    drainDelayMs: Number(env.DRAIN_DELAY_MS ?? 0),
    supervised: env.BOREALIS_SUPERVISED === "1",
    confirmRecovery: {
      olderThanMs: env.CONFIRM_RECOVERY_AFTER_MS ? Number(env.CONFIRM_RECOVERY_AFTER_MS) : undefined,
      everyMs: env.CONFIRM_RECOVERY_EVERY_MS ? Number(env.CONFIRM_RECOVERY_EVERY_MS) : undefined,
    },
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
  if (settings.supervised) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) begin("supervisor gone");
    }, 1_000).unref();
  }
}
