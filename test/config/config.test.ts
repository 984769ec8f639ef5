// server/config.ts: every variable's default, a bad value stopping the process with a message that
// names it, values read again when the environment changes, and the README's generated tables.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, setting, SETTINGS } from "../../server/config.js";
import { processSettings } from "../../server/cli/process.js";
import { BEGIN, END, renderConfigTables, withConfigTables } from "../../codegen/config-docs.js";

const ROOT = new URL("../../", import.meta.url);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error("loadConfig accepted " + JSON.stringify(env));
}

describe("defaults", () => {
  it("gives every variable its documented default when the environment is empty", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8000,
      HOST: "127.0.0.1",
      TEMPORAL_NAMESPACE: "default",
      DRAIN_TIMEOUT_MS: 25_000,
      DRAIN_DELAY_MS: 0,
      BOREALIS_SUPERVISED: false,
      CHECKOUT_TTL_SECONDS: 3600,
      FILES_PRESIGN_TTL: 3600,
      CUSTOMER_SESSION_CODE_TTL_SECONDS: 900,
      CUSTOMER_SESSION_CODE_MAX_PER_EMAIL: 5,
      CUSTOMER_SESSION_CODE_MAX_PER_CLIENT: 30,
      CUSTOMER_SESSION_CODE_MAX_FAILURES: 10,
      SUBSCRIPTION_DUNNING_DAYS: [2, 5, 7, 7],
      CAPTCHA_PROVIDER: "cloudflare-turnstile",
      AUTH_RATE_LIMIT: true,
      TRUSTED_ORIGINS: [],
      MAIL_FROM: "Borealis <no-reply@borealis.localhost>",
      S3_REGION: "us-east-1",
      DISCORD_API_BASE_URL: "https://discord.com/api/v10",
      GITHUB_API_BASE_URL: "https://api.github.com",
      WEBHOOKS_ALLOW_HTTP: false,
      ORG: "demo",
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.RATE_LIMIT_PUBLIC).toBeUndefined();
  });

  it("counts an empty value as unset", () => {
    expect(loadConfig({ PORT: "", PUBLIC_API_URL: "", AUTH_RATE_LIMIT: "" })).toMatchObject({
      PORT: 8000,
      PUBLIC_API_URL: undefined,
      AUTH_RATE_LIMIT: true,
    });
  });

  it("parses what is set", () => {
    const config = loadConfig({
      PORT: "0",
      AUTH_RATE_LIMIT: "0",
      WEBHOOKS_ALLOW_LOOPBACK: "true",
      S3_FORCE_PATH_STYLE: "YES",
      TRUSTED_ORIGINS: "https://a.example, https://b.example",
      SUBSCRIPTION_DUNNING_DAYS: "3, 3",
      RATE_LIMIT_PUBLIC: "5/10",
      RATE_LIMIT_TOKEN: "off",
    });
    expect(config).toMatchObject({
      PORT: 0,
      AUTH_RATE_LIMIT: false,
      WEBHOOKS_ALLOW_LOOPBACK: true,
      S3_FORCE_PATH_STYLE: true,
      TRUSTED_ORIGINS: ["https://a.example", "https://b.example"],
      SUBSCRIPTION_DUNNING_DAYS: [3, 3],
      RATE_LIMIT_PUBLIC: { points: 5, durationSeconds: 10 },
      RATE_LIMIT_TOKEN: null,
    });
  });

  it("reads TRUST_PROXY as Fastify's trustProxy: a hop count, a boolean, or addresses as written", () => {
    expect(setting("TRUST_PROXY", { TRUST_PROXY: "2" })).toBe(2);
    expect(setting("TRUST_PROXY", { TRUST_PROXY: "true" })).toBe(true);
    expect(setting("TRUST_PROXY", { TRUST_PROXY: "false" })).toBe(false);
    expect(setting("TRUST_PROXY", { TRUST_PROXY: "loopback, 10.0.0.0/8" })).toBe("loopback, 10.0.0.0/8");
  });
});

describe("bad values", () => {
  it("names the variable, what it must be and what it got", () => {
    expect(problemsOf({ PORT: "abc" })).toEqual(['PORT must be an integer 0-65535, got "abc"']);
    expect(problemsOf({ PORT: "70000" })).toEqual(['PORT must be an integer 0-65535, got "70000"']);
    expect(problemsOf({ CHECKOUT_TTL_SECONDS: "1h" })).toEqual(['CHECKOUT_TTL_SECONDS must be an integer 1-31536000, got "1h"']);
    expect(problemsOf({ RATE_LIMIT_PUBLIC: "lots" })).toEqual(['RATE_LIMIT_PUBLIC must be "<points>/<seconds>" or "off", got "lots"']);
    expect(problemsOf({ RATE_LIMIT_PUBLIC: "0/60" })).toEqual(['RATE_LIMIT_PUBLIC must be "<points>/<seconds>" or "off", got "0/60"']);
    expect(problemsOf({ WEBHOOKS_ALLOW_HTTP: "maybe" })).toEqual([
      'WEBHOOKS_ALLOW_HTTP must be 1, true, yes, on, or 0, false, no, off, got "maybe"',
    ]);
    expect(problemsOf({ CAPTCHA_PROVIDER: "recaptcha" })[0]).toMatch(
      /^CAPTCHA_PROVIDER must be one of cloudflare-turnstile, .*, got "recaptcha"$/,
    );
    expect(problemsOf({ PUBLIC_API_URL: "api.example.com" })).toEqual(['PUBLIC_API_URL must be a URL, got "api.example.com"']);
    expect(problemsOf({ SUBSCRIPTION_DUNNING_DAYS: "2,-1" })[0]).toMatch(/^SUBSCRIPTION_DUNNING_DAYS must be .*, got "2,-1"$/);
    expect(problemsOf({ LOG_LEVEL: "loud" })[0]).toMatch(/^LOG_LEVEL must be one of fatal, error, warn, info/);
  });

  it("lists every bad variable at once", () => {
    let message = "";
    try {
      loadConfig({ PORT: "x", DRAIN_TIMEOUT_MS: "-5", HOST: "0.0.0.0" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      '2 environment variables are wrong:\n  PORT must be an integer 0-65535, got "x"\n  DRAIN_TIMEOUT_MS must be an integer 0-86400000, got "-5"',
    );
  });

  it("stops the API and worker processes at start (processSettings)", () => {
    const base = { DATABASE_URL: "postgres://u@127.0.0.1:5432/db", TEMPORAL_ADDRESS: "127.0.0.1:7233" };
    expect(() => processSettings({ ...base, PORT: "abc" })).toThrow('PORT must be an integer 0-65535, got "abc"');
    expect(() => processSettings({ ...base, WEBHOOK_DISABLE_AFTER_MS: "soon" })).toThrow(/WEBHOOK_DISABLE_AFTER_MS/);
    expect(() => processSettings({ TEMPORAL_ADDRESS: "127.0.0.1:7233" })).toThrow("DATABASE_URL is not set");
    expect(processSettings({ ...base, PORT: "9001", CONFIRM_RECOVERY_EVERY_MS: "500" })).toMatchObject({
      databaseUrl: base.DATABASE_URL,
      port: 9001,
      host: "127.0.0.1",
      drainMs: 25_000,
      supervised: false,
      confirmRecovery: { everyMs: 500 },
      tracing: null,
    });
  });
});

describe("setting() reads the process's environment when asked", () => {
  const saved = process.env.CHECKOUT_TTL_SECONDS;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHECKOUT_TTL_SECONDS;
    else process.env.CHECKOUT_TTL_SECONDS = saved;
  });

  it("sees a value set after start, and its removal", () => {
    delete process.env.CHECKOUT_TTL_SECONDS;
    expect(setting("CHECKOUT_TTL_SECONDS")).toBe(3600);
    process.env.CHECKOUT_TTL_SECONDS = "60";
    expect(setting("CHECKOUT_TTL_SECONDS")).toBe(60);
    process.env.CHECKOUT_TTL_SECONDS = "sixty";
    expect(() => setting("CHECKOUT_TTL_SECONDS")).toThrow('CHECKOUT_TTL_SECONDS must be an integer 1-31536000, got "sixty"');
    delete process.env.CHECKOUT_TTL_SECONDS;
    expect(setting("CHECKOUT_TTL_SECONDS")).toBe(3600);
  });
});

describe("the README's configuration tables", () => {
  const readme = readFileSync(new URL("README.md", ROOT), "utf8");

  it("are what the schema says, and name every variable with its default", () => {
    expect(withConfigTables(readme)).toBe(readme);
    const section = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END));
    for (const name of Object.keys(SETTINGS)) expect(section).toContain(`| \`${name}\` |`);
    expect(section).toContain("| `PORT` | an integer 0-65535 | `8000` |");
    expect(section).toContain("| `BETTER_AUTH_SECRET` | text; secret |");
  });

  it("are found stale when a row is edited by hand or the schema changes", () => {
    const edited = readme.replace("| `PORT` | an integer 0-65535 | `8000` |", "| `PORT` | an integer 0-65535 | `3000` |");
    expect(edited).not.toBe(readme);
    expect(withConfigTables(edited)).toBe(readme);
    const { PORT: _port, ...withoutPort } = SETTINGS;
    expect(renderConfigTables(withoutPort)).not.toContain("`PORT`");
    expect(withConfigTables(readme, renderConfigTables(withoutPort))).not.toBe(readme);
  });

  it("`codegen/config-docs.ts --check` passes on the committed README", () => {
    const run = spawnSync("node_modules/.bin/tsx", ["codegen/config-docs.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
