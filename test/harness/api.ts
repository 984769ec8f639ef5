// One API server per test file, on a random port, over the suite's PostgreSQL, with every
// response validated against the contract (a violation turns into a 500 that fails the test).
import { Polar } from "@polar-sh/sdk";
import type { Knex } from "knex";
import { afterAll, beforeAll } from "vitest";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import type { BorealisAuth } from "../../server/auth/instance.js";
import type { OrganizationTokens } from "../../server/kit/org-tokens.js";
import { startApi, type ApiHandle } from "../../server/main.js";
import { orgWithToken } from "./factories.js";

export interface TestApi {
  knex: Knex;
  url: string;
  /** The server's better-auth instance (its api and options). */
  auth: BorealisAuth;
  /** The server's organization token verifier. */
  tokens: OrganizationTokens;
  /** An official client for a token. */
  client(token: string): Polar;
}

export function useTestApi(): TestApi {
  const state = {} as { knex: Knex; api: ApiHandle };
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
  };
  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: the vitest globalSetup starts PostgreSQL.");
    state.knex = createKnex(url);
    await migrateLatest(state.knex);
    state.api = await startApi({ knex: state.knex, port: 0, validateResponses: true });
  });
  afterAll(async () => {
    await state.api?.close();
    await state.knex?.destroy();
  });
  return handle;
}

/** A new organization, a token for it (all scopes unless given) and the official client with that token. */
export async function orgWithClient(api: TestApi, opts: { scopes?: string[] } = {}): Promise<{ org: { id: string; slug: string; name: string }; token: string; polar: Polar }> {
  const { org, token } = await orgWithToken(api.knex, opts);
  return { org, token, polar: api.client(token) };
}
