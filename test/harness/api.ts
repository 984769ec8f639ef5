// One API server per test file, on a random port, over the suite's PostgreSQL, with every
// response validated against the contract (a violation turns into a 500 that fails the test).
// A file that needs its own API options passes them (`useTestApi({ requestTimeoutMs })`), with the
// environment its API starts under (`env`); `api.startAnother(...)` starts a second API over the
// same database (a second process, its own limits), closed after the file.
import { Polar } from "@polar-sh/sdk";
import { Polar as Polar049 } from "polar-sdk-049";
import type { Knex } from "knex";
import { afterAll, beforeAll } from "vitest";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import type { BorealisAuth } from "../../server/auth/instance.js";
import type { OrganizationTokens } from "../../server/organization-access-tokens/verifier.js";
import { startApi, type ApiHandle } from "../../server/main.js";
import { orgWithToken } from "./factories.js";
import { sharedResponseChecks } from "./response-checks.js";

type StartApiOptions = Parameters<typeof startApi>[0];

export type { ApiHandle };

/** startApi's options (port 0 and the file's database unless given), and variables set while the API starts. */
export type TestApiOptions = Partial<StartApiOptions> & {
  /** Set in process.env from the API's start (settings are read then) until it closes; a function is called at start. */
  env?: Record<string, string> | (() => Record<string, string>);
};

export interface TestApi {
  knex: Knex;
  url: string;
  /** The server's better-auth instance (its api and options). */
  auth: BorealisAuth;
  /** The server's organization token verifier. */
  tokens: OrganizationTokens;
  /** An official client for a token. */
  client(token: string): Polar;
  /** The newest 0.x official client (0.49.0) for a token. */
  client049(token: string): Polar049;
  /** Another API over this file's database (unless `knex` is given), with its own options; closed after the file unless the test closes it. */
  startAnother(options?: TestApiOptions): Promise<ApiHandle>;
}

/** The run's database alone, migrated, for a suite whose API and worker are child processes of its own; destroyed after the file. */
export function useTestDatabase(): { readonly knex: Knex } {
  const state = {} as { knex?: Knex };
  beforeAll(async () => {
    state.knex = await openTestDatabase();
  });
  afterAll(async () => {
    await state.knex?.destroy();
  });
  return {
    get knex() {
      if (!state.knex) throw new Error("useTestDatabase: the database is opened in beforeAll");
      return state.knex;
    },
  };
}

async function openTestDatabase(): Promise<Knex> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: the vitest globalSetup starts PostgreSQL.");
  const knex = createKnex(url);
  await migrateLatest(knex);
  return knex;
}

/** The file's API, responses validated unless `validateResponses: false`; options as startApi's. */
export function useTestApi(options: TestApiOptions = {}): TestApi {
  const state = {} as { knex: Knex; api: ApiHandle };
  const others: ApiHandle[] = [];
  const handle: TestApi = {
    get knex() {
      return state.knex;
    },
    get url() {
      return state.api.url;
    },
    get auth() {
      return state.api.auth;
    },
    get tokens() {
      return state.api.tokens;
    },
    client: (token: string) => new Polar({ accessToken: token, serverURL: state.api.url }),
    client049: (token: string) => new Polar049({ accessToken: token, serverURL: state.api.url }),
    startAnother: async (more = {}) => {
      // Closed by the test (a drain it watches) or after the file.
      const other = await startTestApi({ knex: state.knex, ...more });
      others.push(other);
      return other;
    },
  };
  beforeAll(async () => {
    state.knex = await openTestDatabase();
    state.api = await startTestApi({ knex: state.knex, validateResponses: true, ...options });
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await state.api?.close();
    await state.knex?.destroy();
  });
  return handle;
}

/** An API on a random port with `options` (`knex` required), under `env` until it closes (closing twice closes once). */
async function startTestApi({ env, ...options }: TestApiOptions & { knex: Knex }): Promise<ApiHandle> {
  const vars = typeof env === "function" ? env() : (env ?? {});
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const restore = () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  Object.assign(process.env, vars);
  let started: ApiHandle;
  try {
    started = await startApi({ port: 0, responseChecks: sharedResponseChecks(), ...options });
  } catch (err) {
    restore();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return { ...started, close: (...args) => (closing ??= started.close(...args).finally(restore)) };
}

/** A new organization, a token for it (all scopes unless given) and the official client with that token. */
export async function orgWithClient(
  api: TestApi,
  opts: { scopes?: string[] } = {},
): Promise<{ org: { id: string; slug: string; name: string }; token: string; polar: Polar }> {
  const { org, token } = await orgWithToken(api.knex, opts);
  return { org, token, polar: api.client(token) };
}
