// Every environment variable Borealis reads, in one schema (name, type, default, purpose, secret),
// and the only module of server/ and workflows/ that touches process.env (ESLint enforces it).
// The README's settings table is generated from SETTINGS (codegen/config-docs.ts). loadConfig()
// validates all at start; setting(name) reads one when needed. An empty value counts as unset.
import { z } from "zod";

/** The environment's shape: process.env, or a plain object in tests. */
export type Env = Readonly<Record<string, string | undefined>>;

/** How one variable's text becomes its value; `label` completes "NAME must be …". */
interface Kind<T> {
  label: string;
  schema: z.ZodType<T, string>;
}

export type Area =
  | "processes"
  | "http"
  | "auth"
  | "urls"
  | "payments"
  | "email"
  | "files"
  | "webhooks"
  | "billing"
  | "benefits"
  | "observability"
  | "cli"
  | "tools";

export interface Variable<T = unknown> {
  kind: Kind<T>;
  area: Area;
  description: string;
  /** The value when unset; undefined: unset stays undefined (the code says what that means). */
  default?: T;
  /** The default as the README shows it, when it is not the value itself (computed, or the code's). */
  shownDefault?: string;
  secret?: boolean;
}

const kind = <T>(label: string, schema: z.ZodType<T, string>): Kind<T> => ({ label, schema });

const text = () => kind("text", z.string());
const url = () =>
  kind(
    "a URL",
    z.string().refine((v) => URL.canParse(v)),
  );
const int = (min: number, max: number) =>
  kind(
    `an integer ${min}-${max}`,
    z
      .string()
      .regex(/^\s*\d+\s*$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
  );
const flag = () =>
  kind(
    "1, true, yes, on, or 0, false, no, off",
    z
      .string()
      .regex(/^(1|true|yes|on|0|false|no|off)$/i)
      .transform((v) => /^(1|true|yes|on)$/i.test(v)),
  );
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  kind(`one of ${values.join(", ")}`, z.string().pipe(z.enum(values)));
const list = () =>
  kind(
    "a comma-separated list",
    z.string().transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
const dayList = () =>
  kind(
    "comma-separated whole or decimal days (at least one, none negative)",
    z
      .string()
      .transform((v) => v.split(",").map((d) => d.trim()))
      .pipe(
        z
          .array(
            z
              .string()
              .regex(/^\d+(\.\d+)?$/)
              .transform(Number),
          )
          .min(1),
      ),
  );

/** A rate-limit policy: "<points>/<seconds>" or "off" (null). */
export interface RatePolicy {
  points: number;
  durationSeconds: number;
}
/** Fastify's `trustProxy`: a hop count, a boolean, or addresses and subnets as written. */
const trustProxy = () =>
  kind(
    "a hop count, true or false, or addresses / subnets",
    z
      .string()
      .transform((v): number | boolean | string => (/^\d+$/.test(v) ? Number(v) : v === "true" || v === "false" ? v === "true" : v)),
  );
const ratePolicy = () =>
  kind<RatePolicy | null>(
    '"<points>/<seconds>" or "off"',
    z.union([
      z.literal("off").transform(() => null),
      z
        .string()
        .transform((v) => /^(\d+)\/(\d+)$/.exec(v.trim()))
        .refine((m) => m !== null && Number(m[1]) >= 1 && Number(m[2]) >= 1)
        .transform((m) => ({ points: Number(m![1]), durationSeconds: Number(m![2]) })),
    ]),
  );

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const CAPTCHA_PROVIDERS = ["cloudflare-turnstile", "google-recaptcha", "hcaptcha", "captchafox"] as const;

function v<T>(kind: Kind<T>, spec: Omit<Variable<T>, "kind" | "default"> & { default: NoInfer<T> }): Variable<T> & { default: T };
function v<T>(kind: Kind<T>, spec: Omit<Variable<T>, "kind" | "default">): Variable<T>;
function v<T>(kind: Kind<T>, spec: Omit<Variable<T>, "kind">): Variable<T> {
  return { kind, ...spec };
}

const rateLimit = (policy: string, what: string) =>
  v(ratePolicy(), { area: "http", shownDefault: policy, description: `the API's rate limit ${what} ("off" turns it off)` });

/** Every variable, in the README's order. */
export const SETTINGS = {
  // processes
  DATABASE_URL: v(url(), {
    area: "processes",
    secret: true,
    description:
      "the Postgres the API, worker and CLIs use (required by them); `make run`, the tests and fuzz start an embedded one when unset",
  }),
  TEMPORAL_ADDRESS: v(text(), {
    area: "processes",
    shownDefault: "`127.0.0.1:7233` for the API's client",
    description:
      "the Temporal frontend (`host:port`); required by `server/cli/api.ts` and `worker.ts`; `make run` and the tests start the dev server when unset",
  }),
  TEMPORAL_NAMESPACE: v(text(), { area: "processes", default: "default", description: "the Temporal namespace" }),
  PORT: v(int(0, 65535), { area: "processes", default: 8000, description: "the API's port (0: any free port)" }),
  HOST: v(text(), { area: "processes", default: "127.0.0.1", description: "the address the API listens on" }),
  DRAIN_DELAY_MS: v(int(0, 86_400_000), {
    area: "processes",
    default: 0,
    description:
      "on SIGTERM the API answers `/readyz` 503 this long before it stops accepting connections (a load balancer's health-check interval)",
  }),
  DRAIN_TIMEOUT_MS: v(int(0, 86_400_000), {
    area: "processes",
    default: 25_000,
    description: "the API or worker exits anyway when draining takes longer",
  }),
  CONFIRM_RECOVERY_AFTER_MS: v(int(1_000, 2_147_483_647), {
    area: "processes",
    default: 6_000,
    description:
      "a confirm renews its lease on the checkout every third of this while it charges; the worker settles a checkout whose confirm died mid-charge (its API killed, or cut off from the database) this long after the last renewal",
  }),
  CONFIRM_RECOVERY_EVERY_MS: v(int(1, 2_147_483_647), {
    area: "processes",
    shownDefault: "`2000`",
    description: "how often the worker looks for such checkouts",
  }),
  BOREALIS_SUPERVISED: v(flag(), {
    area: "processes",
    default: false,
    description: "set by `make run`'s supervisor: the process exits when its supervisor is gone",
  }),
  NODE_ENV: v(text(), {
    area: "processes",
    description: "`production` requires `BETTER_AUTH_SECRET`; `development` lets webhook endpoints use plain http",
  }),
  // http
  TRUST_PROXY: v(trustProxy(), {
    area: "http",
    description: "Fastify's `trustProxy`: a hop count (`1`), `true`, or addresses / subnets; unset: the socket's address is the client's",
  }),
  RATE_LIMIT_PUBLIC: rateLimit("`120/60`", "per client address on unauthenticated calls"),
  RATE_LIMIT_AUTH_FAILURE: rateLimit("`20/60`", "on failed authentications per client address"),
  RATE_LIMIT_TOKEN: rateLimit("`1200/60`", "per access token"),
  RATE_LIMIT_CUSTOMER: rateLimit("`600/60`", "per customer session"),
  METRICS_TOKEN: v(text(), { area: "http", secret: true, description: "a bearer token `/metrics` asks for; unset: open" }),
  // auth
  BETTER_AUTH_SECRET: v(text(), {
    area: "auth",
    secret: true,
    shownDefault: "random per process",
    description: "signs sessions (32+ characters; required with `NODE_ENV=production`; `make run` keeps one in `.data/auth-secret`)",
  }),
  TRUSTED_ORIGINS: v(list(), {
    area: "auth",
    default: [],
    shownDefault: "none",
    description: "more origins allowed to sign in and to change data with a session cookie (comma separated)",
  }),
  AUTH_RATE_LIMIT: v(flag(), { area: "auth", default: true, description: "`0` turns better-auth's sign-in rate limiter off" }),
  AUTH_IP_HEADER: v(text(), {
    area: "auth",
    description:
      "the header a trusted reverse proxy puts the client's address in (e.g. `x-real-ip`; of a list, the last address): sign-in, OAuth2 and the portal's codes count clients by it; unset: the TCP peer's, or `TRUST_PROXY`'s client",
  }),
  CAPTCHA_SECRET_KEY: v(text(), {
    area: "auth",
    secret: true,
    description: "turns the captcha on for sign-up, sign-in and password reset (docs/AUTH.md)",
  }),
  CAPTCHA_PROVIDER: v(oneOf(CAPTCHA_PROVIDERS), { area: "auth", default: "cloudflare-turnstile", description: "the captcha's provider" }),
  CAPTCHA_VERIFY_URL: v(url(), { area: "auth", shownDefault: "the provider's", description: "overrides the provider's siteverify URL" }),
  // urls
  PUBLIC_API_URL: v(url(), {
    area: "urls",
    shownDefault: "`http://127.0.0.1:$PORT`",
    description: "the API's public address: the URLs it writes (checkouts, links, files), email links, the OAuth2 issuer",
  }),
  PUBLIC_APP_URL: v(url(), {
    area: "urls",
    shownDefault: "`PUBLIC_API_URL` + `/dashboard`",
    description: "where the console lives (invitation and device-approval links)",
  }),
  PUBLIC_CHECKOUT_URL: v(url(), {
    area: "urls",
    shownDefault: "`PUBLIC_API_URL`",
    description: "where the hosted checkout is served (`<base>/checkout/<secret>`)",
  }),
  PUBLIC_PORTAL_URL: v(url(), {
    area: "urls",
    shownDefault: "`PUBLIC_API_URL`",
    description: "where the customer portal is served (`<base>/<slug>/portal`)",
  }),
  PUBLIC_FILES_URL: v(url(), {
    area: "urls",
    shownDefault: "`PUBLIC_API_URL`",
    description: "where the local file storage's signed download and upload URLs point",
  }),
  // payments
  STRIPE_SECRET_KEY: v(text(), {
    area: "payments",
    secret: true,
    shownDefault: "the sandbox processor",
    description: "payments go through Stripe with this key (a test-mode key in development; the tests use stripe-mock)",
  }),
  STRIPE_PUBLISHABLE_KEY: v(text(), {
    area: "payments",
    description: "the key the hosted checkout loads Stripe's Payment Element with (with `STRIPE_SECRET_KEY`)",
  }),
  STRIPE_WEBHOOK_SECRET: v(text(), {
    area: "payments",
    secret: true,
    description: "verifies Stripe's webhooks at `/v1/integrations/stripe/webhook`; unset: it answers 503",
  }),
  SANDBOX_LEDGER_DIR: v(text(), {
    area: "payments",
    shownDefault: "memory only",
    description: "where the sandbox processor keeps answered idempotency keys, so a retry from another process gets the first answer",
  }),
  SANDBOX_CHARGE_DELAY_MS: v(int(0, 3_600_000), {
    area: "payments",
    default: 0,
    description:
      "the sandbox processor holds each charge's answer (a checkout's confirm, an off-session charge) back this long after recording it (reliability tests)",
  }),
  CHECKOUT_TTL_SECONDS: v(int(1, 31_536_000), {
    area: "payments",
    default: 3600,
    description: "how long a new checkout session stays open",
  }),
  // email
  SMTP_URL: v(url(), {
    area: "email",
    description: "where email goes (`smtp://host:port`); `make run` and the tests start Mailpit and set it",
  }),
  MAIL_FROM: v(text(), { area: "email", default: "Borealis <no-reply@borealis.localhost>", description: "the sender of every email" }),
  CUSTOMER_SESSION_CODE_TTL_SECONDS: v(int(1, 86_400), {
    area: "email",
    default: 900,
    description: "how long a portal sign-in code works",
  }),
  CUSTOMER_SESSION_CODE_MAX_PER_EMAIL: v(int(1, 1_000_000), {
    area: "email",
    default: 5,
    description: "portal sign-in codes sent per email address per 15 minutes",
  }),
  CUSTOMER_SESSION_CODE_MAX_PER_CLIENT: v(int(1, 1_000_000), {
    area: "email",
    default: 30,
    description: "portal sign-in codes asked per client address per 15 minutes",
  }),
  CUSTOMER_SESSION_CODE_MAX_FAILURES: v(int(1, 1_000_000), {
    area: "email",
    default: 10,
    description: "wrong portal sign-in codes per client address per 15 minutes",
  }),
  // files
  FILES_STORAGE: v(oneOf(["local", "s3"]), {
    area: "files",
    shownDefault: "`s3` when `S3_BUCKET` is set, else `local`",
    description: "where uploaded files are kept",
  }),
  FILES_DIR: v(text(), { area: "files", shownDefault: "`.data/files`", description: "the local file storage's folder" }),
  FILES_SIGNING_SECRET: v(text(), {
    area: "files",
    secret: true,
    shownDefault: "one kept in `FILES_DIR`",
    description: "signs the local file storage's URLs",
  }),
  FILES_PRESIGN_TTL: v(int(1, 604_800), { area: "files", default: 3600, description: "seconds a signed upload or download URL works" }),
  S3_BUCKET: v(text(), {
    area: "files",
    description: "store files in this S3 bucket (presigned part uploads and downloads straight to S3)",
  }),
  S3_REGION: v(text(), { area: "files", default: "us-east-1", description: "the bucket's region" }),
  S3_ENDPOINT: v(url(), {
    area: "files",
    shownDefault: "AWS",
    description: "an S3-compatible server instead of AWS (MinIO, R2, versitygw…), e.g. `http://127.0.0.1:7070`",
  }),
  S3_FORCE_PATH_STYLE: v(flag(), {
    area: "files",
    default: false,
    description: "`endpoint/bucket/key` URLs instead of `bucket.endpoint/key` (most S3-compatible servers want it)",
  }),
  S3_ACCESS_KEY_ID: v(text(), {
    area: "files",
    shownDefault: "the AWS SDK's chain",
    description: "the S3 credentials' key id (with `S3_SECRET_ACCESS_KEY`, both or neither)",
  }),
  S3_SECRET_ACCESS_KEY: v(text(), {
    area: "files",
    secret: true,
    shownDefault: "the AWS SDK's chain",
    description: "the S3 credentials' secret",
  }),
  S3_PUBLIC_URL: v(url(), {
    area: "files",
    shownDefault: "the bucket's own URL",
    description:
      "where product media and avatars are read anonymously: their keys start with `public/`, so grant anonymous `s3:GetObject` on `bucket/public/*` or put a CDN there",
  }),
  // webhooks
  WEBHOOKS_ALLOW_HTTP: v(flag(), { area: "webhooks", default: false, description: "lets webhook endpoints use plain `http`" }),
  WEBHOOKS_ALLOW_LOOPBACK: v(flag(), {
    area: "webhooks",
    default: false,
    description: "lets webhook endpoints be loopback addresses (a receiver on this machine)",
  }),
  WEBHOOKS_ALLOW_PRIVATE: v(flag(), { area: "webhooks", default: false, description: "lets webhook endpoints be private-range addresses" }),
  WEBHOOK_DISABLE_AFTER_MS: v(int(1, Number.MAX_SAFE_INTEGER), {
    area: "webhooks",
    shownDefault: "308105000 (the retry schedule's length, about 3.6 days)",
    description: "an endpoint that fails every attempt for this long is disabled and its organization told",
  }),
  WEBHOOK_HOLD_MS: v(int(0, Number.MAX_SAFE_INTEGER), {
    area: "webhooks",
    default: 3_600_000,
    shownDefault: "3600000 (1 hour: the attempts at once, +5 s, +5 min and +30 min)",
    description:
      "how long a failing event holds back its endpoint's later events: one whose next attempt is due later than this after its first leaves the ordered queue and is retried on its own (`docs/CONTRACT.md`, \"Webhook delivery order\"); read when an endpoint's delivery workflow starts",
  }),
  // billing
  PLATFORM_FEE_BASIS_POINTS: v(int(0, 10_000), {
    area: "billing",
    default: 0,
    description:
      "the platform's fee on each paid order, in hundredths of a percent of its total (`500`: 5%); shown as the order's `platform_fee_amount`",
  }),
  PLATFORM_FEE_FIXED: v(int(0, 1_000_000_000), {
    area: "billing",
    default: 0,
    description: "a fixed platform fee on each paid order with a total, in the order currency's minor units, added to the percentage",
  }),
  SUBSCRIPTION_DUNNING_DAYS: v(dayList(), {
    area: "billing",
    default: [2, 5, 7, 7],
    shownDefault: "`2,5,7,7`",
    description: "days between a failed renewal payment and each retry; after the last one the subscription is canceled",
  }),
  VIES_URL: v(url(), {
    area: "billing",
    default: "https://ec.europa.eu/taxation_customs/vies/rest-api",
    description:
      "the EU's VIES REST API, which confirms customers' EU VAT ids (`POST /check-vat-number`); a check that fails is retried later and never blocks a purchase",
  }),
  HMRC_URL: v(url(), {
    area: "billing",
    default: "https://api.service.hmrc.gov.uk",
    description: "HMRC's API, which confirms customers' UK VAT numbers (Check a UK VAT number, version 2)",
  }),
  HMRC_CLIENT_ID: v(text(), {
    area: "billing",
    description: "the HMRC application's client id: its OAuth token (scope `read:vat`) authorizes the UK VAT number checks",
  }),
  HMRC_CLIENT_SECRET: v(text(), {
    area: "billing",
    secret: true,
    description: "the HMRC application's client secret (with `HMRC_CLIENT_ID`)",
  }),
  TAX_ID_CHECK_TIMEOUT_MS: v(int(1, 60_000), {
    area: "billing",
    default: 5000,
    description: "how long a VIES or HMRC check may take before it counts as unavailable",
  }),
  TAX_ID_CHECK_RETRY_MS: v(int(1, Number.MAX_SAFE_INTEGER), {
    area: "billing",
    default: 900_000,
    description: "how long after an unavailable VIES or HMRC check it is tried again (by the worker's backstop sweep)",
  }),
  // benefits
  DISCORD_BOT_TOKEN: v(text(), {
    area: "benefits",
    secret: true,
    description: "grants and verifies Discord benefits; unset: they fail as not configured",
  }),
  DISCORD_API_BASE_URL: v(url(), { area: "benefits", default: "https://discord.com/api/v10", description: "Discord's API" }),
  GITHUB_TOKEN: v(text(), {
    area: "benefits",
    secret: true,
    description: "grants and verifies GitHub repository benefits; unset: they fail as not configured",
  }),
  GITHUB_API_BASE_URL: v(url(), { area: "benefits", default: "https://api.github.com", description: "GitHub's API" }),
  // observability
  LOG_LEVEL: v(oneOf(LOG_LEVELS), {
    area: "observability",
    shownDefault: "`info` (`warn` under vitest and `make run`)",
    description: "the log level",
  }),
  LOG_PRETTY: v(flag(), {
    area: "observability",
    shownDefault: "on when stdout is a terminal",
    description: "`1`: readable log lines (pino-pretty); `0`: JSON lines",
  }),
  VITEST: v(text(), { area: "observability", description: "set by vitest: logs default to `warn` and are never pretty" }),
  OTEL_EXPORTER_OTLP_ENDPOINT: v(url(), {
    area: "observability",
    shownDefault: "off",
    description:
      "turns OpenTelemetry traces on in the API and worker: OTLP/HTTP (JSON) to `<endpoint>/v1/traces` (server/kit/telemetry.ts, docs/RELIABILITY.md)",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: v(url(), {
    area: "observability",
    description: "the full traces URL instead (read by the exporter too)",
  }),
  OTEL_EXPORTER_OTLP_HEADERS: v(text(), {
    area: "observability",
    secret: true,
    description: "headers for the collector, `k=v,k2=v2` (read by the exporter)",
  }),
  OTEL_SERVICE_NAME: v(text(), {
    area: "observability",
    shownDefault: "`borealis-api` / `borealis-worker`",
    description: "the service name on spans",
  }),
  OTEL_TRACES_SAMPLER: v(text(), {
    area: "observability",
    shownDefault: "`parentbased_always_on`",
    description: "the sampler (read by the SDK), with `OTEL_TRACES_SAMPLER_ARG`",
  }),
  OTEL_TRACES_SAMPLER_ARG: v(text(), { area: "observability", description: "the sampler's argument (read by the SDK)" }),
  OTEL_SDK_DISABLED: v(flag(), { area: "observability", default: false, description: "`true`: tracing off even with an endpoint" }),
  WORKER_METRICS_ADDRESS: v(text(), {
    area: "observability",
    description: "`host:port`: the worker serves the Temporal SDK's Prometheus metrics at `http://<address>/metrics`",
  }),
  // cli
  ORG: v(text(), { area: "cli", default: "demo", description: "`make token`: the organization's slug" }),
  SCOPES: v(text(), { area: "cli", shownDefault: "all", description: "`make token`: the token's scopes, space- or comma-separated" }),
  BOREALIS_DATA_DIR: v(text(), {
    area: "cli",
    shownDefault: "`.data`",
    description: "where `make run` keeps its database, Temporal, mail, files and `run.json` (which `make token` reads)",
  }),
  // tools
  BOREALIS_QUIET_SERVICES: v(flag(), {
    area: "tools",
    default: false,
    description: "`1`: the local services (Postgres, Temporal, Mailpit) log nothing on stderr",
  }),
  TEMPORAL_UI_PORT: v(int(0, 65535), {
    area: "tools",
    shownDefault: "a free port",
    description: "`make run`: the Temporal UI's port (when it starts the dev server)",
  }),
  CHROMIUM_PATH: v(text(), {
    area: "tools",
    default: "/usr/bin/chromium-headless-shell",
    description:
      "the Chromium the browser tests, `make bench-console` and `make bench-portal` drive (Debian's headless shell, which `make install` installs)",
  }),
} as const satisfies Record<string, Variable<never> | Variable<unknown>>;

export type SettingName = keyof typeof SETTINGS;
type ValueOf<V> = V extends { default: infer T } ? T : V extends Variable<infer T> ? T | undefined : never;
/** Every variable's value, parsed. */
export type Config = { readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };

export const AREA_TITLES: Record<Area, string> = {
  processes: "Processes: database, Temporal, listening, draining",
  http: "HTTP: proxies, rate limits, metrics",
  auth: "Sign-in (better-auth)",
  urls: "Public URLs",
  payments: "Payments and checkouts",
  email: "Email and portal sign-in codes",
  files: "Files",
  webhooks: "Webhooks",
  billing: "Billing",
  benefits: "Benefits",
  observability: "Logs, traces, metrics",
  cli: "Command-line tools",
  tools: "Development tools",
};

/** A variable with a bad value; the message names it and what it must be. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} environment variables are wrong:\n  ${problems.join("\n  ")}`);
  }
}

function parse(name: SettingName, raw: string | undefined): unknown {
  const spec: Variable = SETTINGS[name] as Variable;
  if (raw === undefined || raw === "") return spec.default;
  const out = spec.kind.schema.safeParse(raw);
  if (!out.success) throw new ConfigError([`${name} must be ${spec.kind.label}, got ${JSON.stringify(raw)}`]);
  return out.data;
}

const cache = new Map<SettingName, { raw: string | undefined; value: unknown }>();

/** One variable's value from `env` (the process's by default), read now. */
export function setting<K extends SettingName>(name: K, env: Env = process.env): Config[K] {
  const raw = env[name];
  if (env !== process.env) return parse(name, raw) as Config[K];
  const hit = cache.get(name);
  if (hit && hit.raw === raw) return hit.value as Config[K];
  const value = parse(name, raw);
  cache.set(name, { raw, value });
  return value as Config[K];
}

/** Every variable, validated at once; throws a ConfigError naming each bad one. */
export function loadConfig(env: Env = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    try {
      out[name] = setting(name, env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out as Config;
}
