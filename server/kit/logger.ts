// Structured JSON logs (pino). LOG_LEVEL overrides; tests default to warn to keep output short.
import { pino } from "pino";

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.VITEST ? "warn" : "info"),
  base: { service: "borealis" },
});
export type Logger = typeof logger;
