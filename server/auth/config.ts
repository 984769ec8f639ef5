// The authentication layer's settings: BETTER_AUTH_SECRET, PUBLIC_API_URL, PUBLIC_APP_URL,
// TRUSTED_ORIGINS, AUTH_RATE_LIMIT, AUTH_IP_HEADER and the CAPTCHA_* variables (each described in
// server/config.ts and the README). Unset BETTER_AUTH_SECRET outside production: a random secret per
// process (sessions do not survive a restart and are not shared between processes).
import { randomBytes } from "node:crypto";
import { CAPTCHA_PROVIDERS, setting, type Env } from "../config.js";
import { logger } from "../kit/logger.js";

export { CAPTCHA_PROVIDERS };
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export interface AuthConfig {
  /** The API's public URL, without a trailing slash. */
  baseURL: string;
  /** The console's URL, without a trailing slash. */
  appURL: string;
  secret: string;
  trustedOrigins: string[];
  rateLimit: boolean;
  /** The header holding the client's address (set by us from the socket unless a proxy's is named). */
  ipHeader: string | null;
  captcha: { provider: CaptchaProvider; secretKey: string; siteVerifyURL?: string } | null;
}

let ephemeralSecret: string | undefined;

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The settings for an API listening at `listenURL`, from `env` (the process's by default). */
export function authConfigFromEnv(listenURL: string, env?: Env): AuthConfig {
  const baseURL = trimSlash(setting("PUBLIC_API_URL", env) ?? listenURL);
  let secret = setting("BETTER_AUTH_SECRET", env);
  if (!secret) {
    if (setting("NODE_ENV", env) === "production") throw new Error("BETTER_AUTH_SECRET must be set in production (32 characters or more)");
    if (!ephemeralSecret) {
      ephemeralSecret = randomBytes(32).toString("base64url");
      logger.info("BETTER_AUTH_SECRET is not set: using a random secret for this process (sessions end when it stops)");
    }
    secret = ephemeralSecret;
  }
  if (secret.length < 32) throw new Error("BETTER_AUTH_SECRET must be at least 32 characters long");
  const captchaKey = setting("CAPTCHA_SECRET_KEY", env);
  const provider = setting("CAPTCHA_PROVIDER", env);
  const verifyURL = setting("CAPTCHA_VERIFY_URL", env);
  const ipHeader = setting("AUTH_IP_HEADER", env);
  return {
    baseURL,
    appURL: trimSlash(setting("PUBLIC_APP_URL", env) ?? `${baseURL}/dashboard`),
    secret,
    trustedOrigins: setting("TRUSTED_ORIGINS", env).map(trimSlash),
    rateLimit: setting("AUTH_RATE_LIMIT", env),
    ipHeader: ipHeader ? ipHeader.toLowerCase() : null,
    captcha: captchaKey ? { provider, secretKey: captchaKey, ...(verifyURL ? { siteVerifyURL: verifyURL } : {}) } : null,
  };
}

/** The origins trusted to call /api/auth and to change data on /v1 with a session cookie. */
export function trustedOrigins(config: AuthConfig): string[] {
  return [...new Set([new URL(config.baseURL).origin, new URL(config.appURL).origin, ...config.trustedOrigins])];
}
