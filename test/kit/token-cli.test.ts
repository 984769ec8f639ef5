// `make token` (server/cli/token.ts) as a merchant uses it: it mints a token for an organization
// of DATABASE_URL's database, or of the database a running `make run` recorded in its data dir;
// the official client works with it; SCOPES limits what it may do; bad input exits 1 with a
// message and mints nothing. (test/run/make-run.test.ts runs `make token` against `make run`.)
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../server/kit/auth.js";
import { ROOT } from "../../scripts/services.js";
import { createOrganization, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const run = promisify(execFile);

/** Runs the CLI with exactly these variables (besides PATH/HOME): no DATABASE_URL unless given. */
async function token(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn" };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "server/cli/token.ts"], {
      cwd: ROOT,
      env: { ...base, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("make token", () => {
  let org: { id: string; slug: string };
  let dataDir: string;
  const tokensOf = async () => api.knex("organization_access_tokens").where({ organization_id: org.id });

  beforeAll(async () => {
    org = await createOrganization(api.knex);
    dataDir = mkdtempSync(path.join(tmpdir(), "borealis-token-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("mints an all-scopes token for DATABASE_URL's organization that the official client uses", async () => {
    const out = await token({ DATABASE_URL: process.env.DATABASE_URL!, ORG: org.slug });
    expect(out.code, out.stderr).toBe(0);
    const minted = out.stdout.trim();
    expect(minted).toMatch(/^polar_oat_[0-9A-Za-z]{40}$/);
    const [row] = await tokensOf();
    expect(row).toMatchObject({ token_hash: hashToken(minted), comment: "make token" });
    const polar = api.client(minted);
    const product = await polar.products.create({ name: "Minted", recurringInterval: null, prices: [{ amountType: "free" }] });
    expect((await polar.products.list({})).result.items.map((p) => p.id)).toEqual([product.id]);
    expect((await polar.customers.list({})).result.items).toEqual([]);
  });

  it("honours SCOPES", async () => {
    const out = await token({ DATABASE_URL: process.env.DATABASE_URL!, ORG: org.slug, SCOPES: "products:read, customers:read" });
    expect(out.code, out.stderr).toBe(0);
    const polar = api.client(out.stdout.trim());
    expect((await polar.products.list({})).result.items).toHaveLength(1);
    expect((await polar.customers.list({})).result.items).toEqual([]);
    const denied = await rejects(
      polar.products.create({ name: "Nope", recurringInterval: null, prices: [{ amountType: "free" }] }),
      SDKError,
    );
    expect(denied.statusCode).toBe(403);
    expect((await rejects(polar.discounts.list({}), SDKError)).statusCode).toBe(403);
  });

  it("finds the database of a running `make run` through its data dir", async () => {
    writeFileSync(path.join(dataDir, "run.json"), JSON.stringify({ pid: process.pid, databaseUrl: process.env.DATABASE_URL }));
    const out = await token({ BOREALIS_DATA_DIR: dataDir, ORG: org.slug, SCOPES: "products:read" });
    expect(out.code, out.stderr).toBe(0);
    expect((await api.client(out.stdout.trim()).products.list({})).result.items).toHaveLength(1);
  });

  // Four CLI processes, each importing the server's modules: at once, and given the time a loaded machine takes.
  it("exits 1 with a message, minting nothing, on bad input", { timeout: 120_000 }, async () => {
    const before = (await tokensOf()).length;
    const cases: [Record<string, string>, RegExp][] = [
      [{ DATABASE_URL: process.env.DATABASE_URL!, ORG: "no-such-org" }, /No organization with slug "no-such-org"/],
      [
        { DATABASE_URL: process.env.DATABASE_URL!, ORG: org.slug, SCOPES: "products:read products:delete" },
        /Unknown scope\(s\): products:delete/,
      ],
      [{ DATABASE_URL: process.env.DATABASE_URL!, ORG: org.slug, SCOPES: " , " }, /SCOPES is empty/],
      [{ BOREALIS_DATA_DIR: path.join(dataDir, "never-ran"), ORG: org.slug }, /start `make run` first/],
    ];
    const outs = await Promise.all(cases.map(([env]) => token(env)));
    for (const [i, [env, message]] of cases.entries()) {
      expect(outs[i].code, JSON.stringify(env)).toBe(1);
      expect(outs[i].stdout).toBe("");
      expect(outs[i].stderr).toMatch(message);
    }
    expect(await tokensOf()).toHaveLength(before);
  });
});
