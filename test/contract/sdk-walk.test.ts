// The SDK walk (./sdk-walk-steps.ts) through 0.34.17 and through 0.49.0: the same steps, each over
// an organization of its own, on the whole stack (a worker for subscriptions, grants and invoices,
// webhook delivery to a receiver, files on local storage). Every operation of each client that we
// serve is called; each call succeeds with its answer parsed by the client's zod schemas, or
// raises the typed error its step expects.
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
import { activityDeps, orgWithToken, ownerWithOrganization, useWorkflowInfra } from "../harness/index.js";
import { register } from "../oauth2/flow.js";
import { useWebhookHarness } from "../webhooks/harness.js";
import { functionsOf, walk, type Outcome, type WalkClient } from "./sdk-walk.js";
import { authorizeQuery, walkSteps } from "./sdk-walk-steps.js";

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
  setWorkflowsDoor({ pokeSubscriptions: door.pokeSubscriptions, startBenefitGrantJobs: door.startBenefitGrantJobs, startInvoice: door.startInvoice });
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

/** One walk per client over a new organization (and a new signed-in owner with an OAuth2 app). */
async function walkWith(client: WalkClient): Promise<Outcome[]> {
  const { org, token } = await orgWithToken(infra.knex);
  const owner = await ownerWithOrganization(h.api.url);
  const oauthClient = await register(h.api.url, owner.browser);
  const steps = walkSteps({ apiUrl: h.api.url, knex: infra.knex, owner: owner.browser, oauthClient, receiverUrl: h.receiver.url });
  return walk(client, steps, {
    apiUrl: h.api.url,
    token,
    userFetch: owner.browser.fetch,
    authorizeQuery: () => authorizeQuery(oauthClient),
    vars: { organizationId: org.id, organizationSlug: org.slug },
  });
}

for (const client of CLIENTS) {
  describe(`the SDK walk through ${client.version}`, () => {
    let outcomes: Outcome[] = [];
    beforeAll(async () => {
      outcomes = await walkWith(client);
    }, 300_000);

    it("calls every operation of the client that we serve", () => {
      const served = [...functionsOf(client.pkg)].filter(([, op]) => op in operations).map(([fn]) => fn);
      const called = new Set(outcomes.map((o) => o.called));
      expect(served.filter((fn) => !called.has(fn))).toEqual([]);
      expect(served.length).toBeGreaterThanOrEqual(128);
    });

    it("does the harness's work between calls", () => {
      expect(outcomes.filter((o) => o.fn.startsWith("chore:") && !o.ok)).toEqual([]);
    });

    for (const { fn } of sdkOps) {
      it(fn, () => {
        const mine = outcomes.filter((o) => o.fn === fn);
        expect(mine.length, `${fn} is not in the walk`).toBeGreaterThan(0);
        expect(mine.filter((o) => !o.ok).map((o) => `${o.called}: ${o.detail}`)).toEqual([]);
      });
    }
  });
}
