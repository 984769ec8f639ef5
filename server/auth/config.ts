// The authentication layer's settings, read from the environment in this one place.
//
//   BETTER_AUTH_SECRET    signs session cookies and encrypts what better-auth keeps secret; at
//                         least 32 characters; required when NODE_ENV=production. Unset elsewhere:
//                         a random one per process (sessions do not survive a restart and are not
//                         shared between processes). `make run` keeps one in .data/auth-secret.
//   PUBLIC_API_URL        the API's public URL (links in emails, the OAuth2 issuer, trusted origin);
//                         default: the URL the API listens on.
//   PUBLIC_APP_URL        where the console lives (invitation and device-approval links);
//                         default: PUBLIC_API_URL + /dashboard.
//   TRUSTED_ORIGINS       more origins (comma separated) allowed to call /api/auth and to make
//                         state-changing /v1 calls with a session cookie.
//   AUTH_RATE_LIMIT       "0" turns better-auth's rate limiter off (on by default).
//   AUTH_IP_HEADER        a header set by a trusted reverse proxy with the client's address
//                         (e.g. x-real-ip); unset: the TCP peer's address.
//   CAPTCHA_SECRET_KEY    turns the captcha plugin on (sign-up, sign-in, password reset).
//   CAPTCHA_PROVIDER      cloudflare-turnstile (default), google-recaptcha, hcaptcha or captchafox.
//   CAPTCHA_VERIFY_URL    overrides the provider's siteverify URL.
import { randomBytes } from "node:crypto";
import { logger } from "../kit/logger.js";

export const CAPTCHA_PROVIDERS = ["cloudflare-turnstile", "google-recaptcha", "hcaptcha", "captchafox"] as const;
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

/** The settings for an API listening at `listenURL`, from `env`. */
export function authConfigFromEnv(listenURL: string, env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const baseURL = trimSlash(env.PUBLIC_API_URL || listenURL);
  let secret = env.BETTER_AUTH_SECRET;
  if (!secret) {
    if (env.NODE_ENV === "production") throw new Error("BETTER_AUTH_SECRET must be set in production (32 characters or more)");
    if (!ephemeralSecret) {
      ephemeralSecret = randomBytes(32).toString("base64url");
      logger.info("BETTER_AUTH_SECRET is not set: using a random secret for this process (sessions end when it stops)");
    }
    secret = ephemeralSecret;
  }
  if (secret.length < 32) throw new Error("BETTER_AUTH_SECRET must be at least 32 characters long");
  const provider = (env.CAPTCHA_PROVIDER || "cloudflare-turnstile") as CaptchaProvider;
  if (!CAPTCHA_PROVIDERS.includes(provider)) {
    throw new Error(`CAPTCHA_PROVIDER must be one of ${CAPTCHA_PROVIDERS.join(", ")}, got "${env.CAPTCHA_PROVIDER}"`);
  }
  return {
    baseURL,
    appURL: trimSlash(env.PUBLIC_APP_URL || `${baseURL}/dashboard`),
    secret,
    trustedOrigins: (env.TRUSTED_ORIGINS ?? "").split(",").map((o) => trimSlash(o.trim())).filter(Boolean),
    rateLimit: env.AUTH_RATE_LIMIT !== "0",
    ipHeader: env.AUTH_IP_HEADER ? env.AUTH_IP_HEADER.toLowerCase() : null,
    captcha: env.CAPTCHA_SECRET_KEY
      ? { provider, secretKey: env.CAPTCHA_SECRET_KEY, ...(env.CAPTCHA_VERIFY_URL ? { siteVerifyURL: env.CAPTCHA_VERIFY_URL } : {}) }
      : null,
  };
}

/** The origins trusted to call /api/auth and to change data on /v1 with a session cookie. */
export function trustedOrigins(config: AuthConfig): string[] {
  return [...new Set([new URL(config.baseURL).origin, new URL(config.appURL).origin, ...config.trustedOrigins])];
}
