// `make run` as a new user meets it: it starts its own PostgreSQL and Temporal, migrates, seeds the
// demo organization, prints the URLs and a working token, keeps data across restarts, restarts
// killed processes and stops cleanly on SIGTERM. Then a first walk with that token: the catalog,
// a buyer from a checkout link to a paid order with its benefit, a refund, a subscription, and
// `make token`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Polar } from "@polar-sh/sdk";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUiApps } from "../../scripts/build-ui.js";
import { freePort, ROOT } from "../../scripts/services.js";
import { signedOutClient } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

const dataDir = path.join(ROOT, ".data", `run-test-${process.pid}`);
// Runs still going when a test fails are stopped in afterAll (their Postgres and Temporal with them).
const live = new Set<ChildProcess>();

async function startRun(port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BOREALIS_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  // Its own Postgres, Temporal, Mailpit and secret, as on a new machine (not the test suite's).
  for (const name of [
    "DATABASE_URL",
    "TEMPORAL_ADDRESS",
    "TEMPORAL_NAMESPACE",
    "SMTP_URL",
    "MAILPIT_URL",
    "BETTER_AUTH_SECRET",
    "AUTH_RATE_LIMIT",
  ])
    delete env[name];
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/run.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  child.on("exit", () => live.delete(child));
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const deadline = Date.now() + 90_000;
  while (!out.includes("Stop with Ctrl-C")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`make run did not start:\n${out}`);
    await sleep(200);
  }
  const api = /API\s+(http\S+)/.exec(out)![1];
  const docs = /API docs\s+(http\S+)/.exec(out)![1];
  const token = /Access token\s+(polar_oat_\S+)/.exec(out)![1];
  const signIn = /Sign in\s+(http\S+)/.exec(out)![1];
  const [, ownerEmail, ownerPassword] = /Demo owner\s+(\S+) \/ (\S+)/.exec(out)!;
  const inbox = /Inbox\s+(http\S+)/.exec(out)![1];
  const demoCheckout = /Open the demo checkout: (http\S+)/.exec(out)![1];
  const portal = /sign in to the customer portal at (http\S+)/.exec(out)![1];
  const stop = async () => {
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    return { code, out };
  };
  return { api, docs, token, signIn, ownerEmail, ownerPassword, inbox, demoCheckout, portal, stop, output: () => out };
}

/** What a new user tries first with the printed token: the catalog, then money through the sandbox. */
async function firstWalk(polar: Polar, apiUrl: string) {
  const anon = new Polar({ serverURL: apiUrl });
  const poll = { timeout: 30_000, interval: 250 };
  const benefit = await polar.benefits.create({
    type: "custom",
    description: "Priority support",
    properties: { note: "Write to support@example.com" },
  });
  const course = await polar.products.create({
    name: "Course",
    recurringInterval: null,
    prices: [{ amountType: "fixed", priceAmount: 4000, priceCurrency: "usd" }],
  });
  await polar.products.updateBenefits({ id: course.id, productBenefitsUpdate: { benefits: [benefit.id] } });
  const customer = await polar.customers.create({ email: "first.buyer@example.com", name: "First Buyer" });
  const discount = await polar.discounts.create({
    name: "Launch",
    type: "percentage",
    duration: "once",
    basisPoints: 2500,
    code: "LAUNCH",
  });

  // A buyer opens a checkout link's url as printed, lands on the checkout, pays with the sandbox card.
  const link = await polar.checkoutLinks.create({ paymentProcessor: "stripe", productId: course.id });
  expect(link.url.startsWith(`${apiUrl}/`)).toBe(true);
  const visit = await fetch(link.url, { redirect: "manual" });
  expect(visit.status).toBe(302);
  const clientSecret = /\/checkout\/([^/?#]+)/.exec(visit.headers.get("location") ?? "")![1];
  await anon.checkouts.clientUpdate({ clientSecret, checkoutUpdatePublic: { customerEmail: customer.email, discountCode: "LAUNCH" } });
  const confirmed = await anon.checkouts.clientConfirm({
    clientSecret,
    checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
  });
  const checkoutId = (await anon.checkouts.clientGet({ clientSecret })).id;
  const [order] = (await polar.orders.list({ checkoutId })).result.items;
  expect(order).toMatchObject({
    status: "paid",
    customerId: customer.id,
    discountId: discount.id,
    subtotalAmount: 4000,
    discountAmount: 1000,
    netAmount: 3000,
  });
  expect(confirmed.customerSessionToken).toBeTruthy();
  // The worker `make run` started grants the product's benefit.
  await expect
    .poll(async () => (await polar.benefits.grants({ id: benefit.id, customerId: customer.id })).result.items.map((g) => g.isGranted), poll)
    .toEqual([true]);
  await polar.refunds.create({ orderId: order.id, reason: "customer_request", amount: order.netAmount });
  expect(await polar.orders.get({ id: order.id })).toMatchObject({ status: "refunded", refundedAmount: 3000 });

  // A subscription product bought through a merchant-made checkout: active at once.
  const plan = await polar.products.create({
    name: "Club",
    recurringInterval: "month",
    prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }],
  });
  const checkout = await polar.checkouts.create({ products: [plan.id], customerId: customer.id });
  await anon.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" },
  });
  const [sub] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
  expect(sub).toMatchObject({ status: "active", productId: plan.id, amount: 900, currency: "usd" });
  const [first] = (await polar.orders.list({ productId: plan.id })).result.items;
  expect(first).toMatchObject({ status: "paid", billingReason: "subscription_create", subscriptionId: sub.id });
}

/** `make token` as the run's banner suggests, against that run's data dir. */
function makeToken(env: Record<string, string>): string {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env, BOREALIS_DATA_DIR: dataDir };
  delete full.DATABASE_URL; // the suite's database: `make token` must find the run's on its own
  const out = spawnSync("make", ["--no-print-directory", "-s", "token"], { cwd: ROOT, env: full, encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.trim().split("\n").at(-1)!;
}

describe("make run", () => {
  // `make run` builds the apps first (make ui); the script started here serves what is built.
  beforeAll(() => buildUiApps(), 300_000);
  afterAll(async () => {
    for (const child of live) {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts the platform, prints a working token, keeps data across restarts, stops cleanly", async () => {
    const port = await freePort();
    const first = await startRun(port);
    expect(first.api).toBe(`http://127.0.0.1:${port}`);
    expect(first.docs).toBe(`${first.api}/docs`);
    expect((await fetch(first.docs)).status).toBe(200);
    // The printed demo checkout opens the hosted checkout page; the portal and the inbox answer.
    const link = await fetch(first.demoCheckout, { redirect: "manual" });
    expect(link.status).toBe(302);
    const page = await fetch(new URL(link.headers.get("location")!, first.api));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="root"');
    expect(first.portal).toBe(`${first.api}/demo/portal`);
    expect((await fetch(first.portal)).status).toBe(200);
    const polar = new Polar({ accessToken: first.token, serverURL: first.api });
    const created = await polar.products.create({
      name: "Made during the run",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 700 }],
    });
    const updated = await polar.products.update({ id: created.id, productUpdate: { name: "Renamed during the run" } });
    expect(updated.name).toBe("Renamed during the run");
    await firstWalk(polar, first.api);
    // The API and the worker are processes of their own, supervised: killed, each comes back.
    const pids = (JSON.parse(readFileSync(path.join(dataDir, "run.json"), "utf8")) as { pids: Record<string, number> }).pids;
    expect(Object.keys(pids).sort()).toEqual(["api", "postgres", "temporal", "worker"]);
    process.kill(pids.api, "SIGKILL");
    process.kill(pids.worker, "SIGKILL");
    await expect
      .poll(
        () =>
          fetch(`${first.api}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000, interval: 250 },
      )
      .toBe(200);
    expect((await polar.products.get({ id: created.id })).name).toBe("Renamed during the run");
    expect(first.output()).toMatch(/api exited \(signal SIGKILL\).*restarting in/);
    expect(first.output()).toMatch(/worker exited \(signal SIGKILL\).*restarting in/);
    const readOnly = new Polar({ accessToken: makeToken({ ORG: "demo", SCOPES: "products:read" }), serverURL: first.api });
    expect((await readOnly.products.list({ limit: 100 })).result.items.map((p) => p.name)).toContain("Club");
    const denied = await readOnly.products.create({ name: "No", recurringInterval: null, prices: [{ amountType: "free" }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(denied).toBeInstanceOf(SDKError);
    expect((denied as SDKError).statusCode).toBe(403);
    // The demo owner signs in with what was printed, owns the demo organization, and the inbox is up.
    expect(first.signIn).toBe(`${first.api}/dashboard/`);
    expect((await fetch(`${first.inbox}/api/v1/info`)).status).toBe(200);
    const owner = signedOutClient(first.api);
    expect((await owner.client.signIn.email({ email: first.ownerEmail, password: first.ownerPassword })).error).toBeNull();
    const orgs = await owner.client.organization.list();
    const demo = orgs.data?.find((o) => o.slug === "demo");
    expect(demo).toBeDefined();
    expect((await owner.client.organization.setActive({ organizationId: demo!.id })).error).toBeNull();
    expect((await owner.fetch(`${first.api}/v1/products/?limit=100`)).status).toBe(200);
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.out).toContain("stopped Postgres");

    const second = await startRun(port);
    // Same owner and password, and the session made before the restart still holds (the kept secret).
    expect([second.ownerEmail, second.ownerPassword]).toEqual([first.ownerEmail, first.ownerPassword]);
    expect((await owner.fetch(`${second.api}/v1/products/?limit=1`)).status).toBe(200);
    // The same demo link after a restart (made once).
    expect(second.demoCheckout).toBe(first.demoCheckout);
    const again = new Polar({ accessToken: second.token, serverURL: second.api });
    const names = (await again.products.list({ limit: 100 })).result.items.map((p) => p.name);
    expect(names).toContain("Renamed during the run");
    expect(names.filter((n) => n === "Pro (monthly)")).toHaveLength(1);
    expect((await second.stop()).code).toBe(0);
  }, 240_000);
});
