// The SDK walk (./sdk-walk-steps.ts) through clients 0.34.17 and 0.49.0, each over an organization
// of its own on the whole stack: every operation we serve succeeds with its answer parsed by the
// client's zod schemas, or raises the typed error its step expects. Then Polar's Python client
// (./sdk_walk.py) calls the same operations over the 0.34.17 walk's organization.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { LocalStorage, setStorage } from "../../server/files/storage.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createBenefitGrantActivities } from "../../workflows/activities/benefit-grants.js";
import { createInvoiceActivities } from "../../workflows/activities/invoice.js";
import { createSubscriptionActivities } from "../../workflows/activities/subscriptions.js";
import { activityDeps, type Browser, orgWithToken, ownerWithOrganization, runPython, useWorkflowInfra } from "../harness/index.js";
import { REDIRECT, register, type Registered } from "../oauth2/flow.js";
import { useWebhookHarness } from "../webhooks/harness.js";
import { functionsOf, walk, type Outcome, type WalkClient, type WalkRun } from "./sdk-walk.js";
import { authorizeQuery, consentCode, walkSteps } from "./sdk-walk-steps.js";

const CLIENTS: WalkClient[] = [
  { pkg: "@polar-sh/sdk", version: "0.34.17" },
  { pkg: "polar-sdk-049", version: "0.49.0" },
];
const sdkOps: Array<{ fn: string }> = JSON.parse(readFileSync(new URL("../../../shared/sdk-operations.json", import.meta.url), "utf8"));

const infra = useWorkflowInfra();
const h = useWebhookHarness(infra, {
  activities: (knex) => {
    const deps = activityDeps(knex);
    return Object.assign({}, createSubscriptionActivities(deps), createBenefitGrantActivities(deps), createInvoiceActivities(deps));
  },
});
const filesDir = mkdtempSync(join(tmpdir(), "sdk-walk-"));

beforeAll(() => {
  const door = temporalDoor(h.client, h.taskQueue);
  setWorkflowsDoor({
    pokeSubscriptions: door.pokeSubscriptions,
    startBenefitGrantJobs: door.startBenefitGrantJobs,
    startInvoice: door.startInvoice,
  });
  setStorage(new LocalStorage(filesDir));
  // Presigned upload URLs and invoice links point at this file's API.
  process.env.PUBLIC_API_URL = h.api.url;
});
afterAll(() => {
  setWorkflowsDoor(null);
  setStorage(null);
  delete process.env.PUBLIC_API_URL;
  rmSync(filesDir, { recursive: true, force: true });
});

interface Walked extends WalkRun {
  owner: Browser;
  oauthClient: Registered;
  token: string;
}

/** One walk per client over a new organization (and a new signed-in owner with an OAuth2 app); once per file. */
const walked = new Map<string, Promise<Walked>>();
function walkOnce(client: WalkClient): Promise<Walked> {
  const run = walked.get(client.version) ?? walkWith(client);
  walked.set(client.version, run);
  return run;
}

async function walkWith(client: WalkClient): Promise<Walked> {
  const { org, token } = await orgWithToken(infra.knex);
  const { browser: owner } = await ownerWithOrganization(h.api.url);
  const oauthClient = await register(h.api.url, owner);
  const steps = walkSteps({ apiUrl: h.api.url, knex: infra.knex, owner, oauthClient, receiverUrl: h.receiver.url });
  const run = await walk(client, steps, {
    apiUrl: h.api.url,
    token,
    userFetch: owner.fetch,
    authorizeQuery: authorizeQuery(oauthClient),
    vars: { organizationId: org.id, organizationSlug: org.slug },
  });
  return Object.assign(run, { owner, oauthClient, token });
}

/** A test per operation: called in the walk, and every call of it succeeded. */
function eachOperation(fns: string[], outcomes: () => { fn: string; ok: boolean; detail?: string }[]) {
  for (const fn of fns) {
    it(fn, () => {
      const mine = outcomes().filter((o) => o.fn === fn);
      expect(mine.length, `${fn} is not in the walk`).toBeGreaterThan(0);
      expect(mine.filter((o) => !o.ok).map((o) => o.detail)).toEqual([]);
    });
  }
}

for (const client of CLIENTS) {
  describe(`the SDK walk through ${client.version}`, () => {
    let outcomes: Outcome[] = [];
    beforeAll(async () => {
      ({ outcomes } = await walkOnce(client));
    }, 300_000);

    it("calls every operation of the client that we serve", () => {
      const ours = new Set(Object.values(operations).map((o) => `${o.method.toUpperCase()} ${o.path}`));
      const served = [...functionsOf(client.pkg)].filter(([, op]) => ours.has(op)).map(([fn]) => fn);
      const called = new Set(outcomes.map((o) => o.called));
      expect(served.filter((fn) => !called.has(fn))).toEqual([]);
      expect(served.length).toBeGreaterThanOrEqual(128);
    });

    it("does the harness's work between calls", () => {
      expect(outcomes.filter((o) => o.fn.startsWith("chore:") && !o.ok)).toEqual([]);
    });

    eachOperation(
      sdkOps.map((o) => o.fn),
      () => outcomes.map((o) => Object.assign({}, o, { detail: `${o.called}: ${o.detail}` })),
    );
  });
}

describe("the SDK walk through Python polar-sdk 0.23.1", () => {
  let outcomes: { fn: string; ok: boolean; detail?: string }[] = [];
  beforeAll(async () => {
    // Over the organization the 0.34.17 walk filled, with a fresh OAuth2 refresh token of its owner.
    const before = await walkOnce(CLIENTS[0]);
    const code = await consentCode(h.api.url, before.owner, before.oauthClient);
    const res = await fetch(`${h.api.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: before.oauthClient.client_id,
        client_secret: before.oauthClient.client_secret,
      }),
    });
    const tokens: { refresh_token: string } = await res.json();
    const context = {
      url: h.api.url,
      token: before.token,
      receiver_url: h.receiver.url,
      vars: before.kept,
      oauth: {
        client_id: before.oauthClient.client_id,
        client_secret: before.oauthClient.client_secret,
        refresh_token: tokens.refresh_token,
        cookie: before.owner.cookie(),
        authorize_query: authorizeQuery(before.oauthClient),
      },
    };
    outcomes = JSON.parse(await runPython(new URL("./sdk_walk.py", import.meta.url), context));
  }, 400_000);

  eachOperation(
    sdkOps.map((o) => o.fn),
    () => outcomes,
  );
});
