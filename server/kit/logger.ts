// Structured logs (pino). LOG_LEVEL overrides; tests default to warn to keep output short. JSON
// lines for machines; readable lines (pino-pretty) when stdout is a terminal, or LOG_PRETTY=1
// (LOG_PRETTY=0 forces JSON). Secrets are never written: any `secret`, `token`, `password` or
// authorization header in a logged object prints as [redacted].
import { pino, type LoggerOptions } from "pino";

const pretty = process.env.LOG_PRETTY === "1" || (process.env.LOG_PRETTY !== "0" && process.stdout.isTTY === true && !process.env.VITEST);

export const REDACTED_PATHS = [
  "secret", "*.secret", "*.*.secret",
  "token", "*.token", "*.*.token",
  "password", "*.password",
  "authorization", "*.authorization", "headers.authorization", "*.headers.authorization",
  "customer_session_token", "*.customer_session_token",
];

const options: LoggerOptions = {
  level: process.env.LOG_LEVEL ?? (process.env.VITEST ? "warn" : "info"),
  base: { service: "borealis" },
  redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  ...(pretty ? { transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" } } } : {}),
};

export const logger = pino(options);
export type Logger = typeof logger;
