// Structured logs (pino). LOG_LEVEL overrides; tests default to warn to keep output short. JSON
// lines for machines; readable lines (pino-pretty) when stdout is a terminal, or LOG_PRETTY=1
// (LOG_PRETTY=0 forces JSON). Secrets are never written: any `secret`, `token`, `password` or
// authorization header in a logged object prints as [redacted].
import { pino, type LoggerOptions } from "pino";
import { setting } from "../config.js";

const pretty = setting("LOG_PRETTY") ?? (process.stdout.isTTY === true && !setting("VITEST"));

export const REDACTED_PATHS = [
  "secret",
  "*.secret",
  "*.*.secret",
  "token",
  "*.token",
  "*.*.token",
  "password",
  "*.password",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "customer_session_token",
  "*.customer_session_token",
];

const options: LoggerOptions = {
  level: setting("LOG_LEVEL") ?? (setting("VITEST") ? "warn" : "info"),
  base: { service: "borealis" },
  redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  ...(pretty
    ? { transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" } } }
    : {}),
};

export const logger = pino(options);
export type Logger = typeof logger;
