// The console's usage screens in Chromium against the running stack: the events list and its
// filters, an event's page, customer meters (consumed, credited, balance), and a meter's
// quantities as a chart or table in its unit; a 422 lands on the field it names. Axe on every
// screen, at 1280 and 375 px; screenshots in docs/screenshots/.
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { storeEvents } from "../../server/events/store.js";
import { foldUsage } from "../../server/meters/fold.js";
import { orgWithToken } from "../harness/index.js";
import { useBrowserStack } from "./harness.js";
import { signIn } from "./console-helpers.js";
import { Polar as Polar049 } from "polar-sdk-049";

interface World {
  token: string;
  ada: { id: string; email: string };
  bob: { id: string; email: string };
  callsId: string;
  tokensId: string;
  eventId: string;
}

/** The data rows of the page's list (react-admin's Datagrid body rows). */
const rows = (page: Page) => page.locator(".RaDatagrid-tbody tr");

/** Waits for the list to show `n` rows (a list after a page load takes a few seconds on a busy machine). */
const expectRows = (page: Page, n: number) => expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(n);

describe("merchant console: usage", { timeout: 240_000 }, () => {
  const stack = useBrowserStack();
  let w: World;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(stack.knex);
    const polar = stack.polar(token);
    const ada = await polar.customers.create({ email: "ada@example.com", name: "Ada Usage", externalId: "ada-ext" });
    const bob = await polar.customers.create({ email: "bob@example.com", name: "Bob Usage" });
    const calls = await polar.meters.create({
      name: "API calls",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "count" },
    });
    const tokens = await polar.meters.create({
      name: "Tokens",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "sum", property: "tokens" },
    });
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await polar.events.ingest({
      events: [
        { name: "api_call", customerId: ada.id, timestamp: hoursAgo(50), metadata: { tokens: 120, model: "large" } },
        { name: "api_call", externalCustomerId: "ada-ext", timestamp: hoursAgo(26), metadata: { tokens: 30, model: "small" } },
        { name: "api_call", customerId: ada.id, timestamp: hoursAgo(3), metadata: { tokens: 50, model: "small" } },
        { name: "api_call", customerId: bob.id, timestamp: hoursAgo(2), metadata: { tokens: 7, model: "small" } },
        { name: "login", customerId: bob.id, timestamp: hoursAgo(1), metadata: { method: "password" } },
      ],
    });
    // a credit of 10 calls, as a meter credit benefit writes it
    await stack.knex.transaction((trx) =>
      storeEvents(trx, org.id, [
        {
          name: "meter.credited",
          source: "system",
          timestamp: hoursAgo(60),
          customerId: ada.id,
          externalCustomerId: null,
          metadata: { meter_id: calls.id, units: 10, rollover: false },
        },
      ]),
    );
    // the customers' meters appear once the worker folds the events in: fold now
    await foldUsage(stack.knex);
    const login = (await polar.events.list({ name: "login" })).result.items[0];
    w = {
      token,
      ada: { id: ada.id, email: ada.email },
      bob: { id: bob.id, email: bob.email },
      callsId: calls.id,
      tokensId: tokens.id,
      eventId: login.id,
    };
  }, 120_000);

  it("lists events, filters them by name, source, customer and time, and shows one with its metadata and customer", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, w.token);
    await page.goto(`${stack.url}/dashboard/events`);
    await page.getByText("meter.credited").first().waitFor();
    await page.waitForLoadState("networkidle");
    // newest first: the login, then the calls, the credit last
    await expectRows(page, 6);
    await expect(rows(page).first().textContent()).resolves.toContain("login");
    await expect(rows(page).last().textContent()).resolves.toContain("meter.credited");
    await expect(rows(page).nth(2).textContent()).resolves.toContain("ada@example.com");
    await expect(rows(page).nth(2).textContent()).resolves.toContain("tokens=50");
    await stack.check(page, "console-events");

    // sorting: oldest first
    await page.getByRole("button", { name: "Time" }).click();
    await expect.poll(async () => (await rows(page).first().textContent()) ?? "", { timeout: 15_000 }).toContain("meter.credited");

    // by name, from the organization's event names
    await page.getByLabel("Name").click();
    await page.getByRole("option", { name: "login" }).click();
    await expectRows(page, 1);
    await expect(rows(page).first().textContent()).resolves.toContain("bob@example.com");
    expect(decodeURIComponent(page.url())).toContain('"name":["login"]');

    // by source: what the platform wrote (the list keeps its last filter: start from none)
    await page.goto(`${stack.url}/dashboard/events?filter=${encodeURIComponent("{}")}`);
    await expectRows(page, 6);
    await page.getByLabel("Source").click();
    await page.getByRole("option", { name: "System" }).click();
    await page.keyboard.press("Escape");
    await expect
      .poll(async () => (await rows(page).allTextContents()).join(" | "), { timeout: 15_000 })
      .toMatch(/^[^|]*meter\.credited[^|]*$/);

    // by customer (the customer's external-id events count as theirs) and time range
    const since = new Date(Date.now() - 30 * 3_600_000);
    const local = `${since.toISOString().slice(0, 16)}`; // the page runs in UTC
    await page.goto(`${stack.url}/dashboard/events?filter=${encodeURIComponent(JSON.stringify({ customer_id: [w.ada.id] }))}`);
    await expectRows(page, 4);
    await page.getByLabel("From").fill(local);
    await expectRows(page, 2);
    expect(decodeURIComponent(page.url())).toContain(`"start_timestamp":"${since.toISOString().slice(0, 16)}`);
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-events-filtered", { screenshot: false });

    // counted by a meter: the meter's own filter
    await page.goto(`${stack.url}/dashboard/events?filter=${encodeURIComponent(JSON.stringify({ meter_id: w.callsId }))}`);
    await expectRows(page, 4);

    // an event: its metadata and its customer
    await page.goto(`${stack.url}/dashboard/events?filter=${encodeURIComponent("{}")}&order=DESC&sort=timestamp`);
    await expectRows(page, 6);
    await rows(page).first().click();
    await page.waitForURL(/\/events\/.+\/show$/);
    await page.getByText("password").waitFor();
    await page.getByRole("link", { name: "bob@example.com" }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-event");
    await page.getByRole("link", { name: "bob@example.com" }).click();
    await page.getByText("Bob Usage").first().waitFor();
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("shows the server's refusal of a filter under that filter", async () => {
    const page = await stack.newPage({ allow: [{ status: 422, url: "/v1/events/" }] });
    await signIn(stack, page, w.token);
    await page.goto(`${stack.url}/dashboard/events?filter=${encodeURIComponent("{}")}`);
    await page.getByText("meter.credited").first().waitFor();
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitemcheckbox", { name: /Filter \(JSON/ }).click();
    const field = page.getByRole("textbox", { name: /Filter \(JSON/ });
    await field.fill('{"conjunction":"and","clauses":[{"property":"tokens","operator":"bigger","value":1}]}');
    await expect.poll(async () => field.getAttribute("aria-invalid"), { timeout: 10_000 }).toBe("true");
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const helper = await page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent();
    expect(helper).toMatch(/clauses\.0\.operator: Input should be one of/);
    // shown, not only announced: the filter form hides helper texts, not an error's
    await expect(page.locator(`[id="${describedBy.split(" ")[0]}"]`).isVisible()).resolves.toBe(true);
    await stack.check(page, "console-events-422", { mobile: false });

    // a valid filter clears it and filters
    await field.fill('{"conjunction":"and","clauses":[{"property":"tokens","operator":"gt","value":100}]}');
    await expect.poll(async () => field.getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("false");
    await expectRows(page, 1);
    await expect(rows(page).first().textContent()).resolves.toContain("tokens=120");
  });

  it("lists customer meters with consumed, credited and balance, filters them, and links them from the customer and the meter", async () => {
    const page = await stack.newPage();
    await signIn(stack, page, w.token);
    await page.goto(`${stack.url}/dashboard/customer-meters`);
    await page.getByText("ada@example.com").first().waitFor();
    await page.waitForLoadState("networkidle");
    // Ada and Bob, each on both meters
    await expectRows(page, 4);
    await stack.check(page, "console-customer-meters");

    // by meter
    await page.goto(`${stack.url}/dashboard/customer-meters?filter=${encodeURIComponent(JSON.stringify({ meter_id: [w.callsId] }))}`);
    await expectRows(page, 2);
    // by customer, chosen by email
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitemcheckbox", { name: "Customer", exact: true }).click();
    await page.getByRole("combobox", { name: "Customer", exact: true }).fill("ada");
    await page.getByRole("option", { name: "ada@example.com" }).click();
    await expectRows(page, 1);
    const ada = (await rows(page).first().textContent()) ?? "";
    // 3 calls consumed, 10 credited, 7 left
    expect(ada).toMatch(/API calls.*3.*10.*7/);

    await rows(page).first().click();
    await page.waitForURL(/\/customer-meters\/.+\/show$/);
    await page.getByText("Consumed units").waitFor();
    await page.getByRole("link", { name: "API calls" }).waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-customer-meter");
    // its events: the calls the meter counted
    await page.getByRole("link", { name: /events counted by this meter/ }).click();
    await expectRows(page, 3);

    // the customer's usage tab: both meters and the latest events
    await page.goto(`${stack.url}/dashboard/customers/${w.ada.id}/show/usage`);
    await page.getByText("Tokens").first().waitFor();
    await page.getByText("meter.credited").first().waitFor();
    await page.waitForLoadState("networkidle");
    await expect(page.getByText("-200").first().isVisible()).resolves.toBe(true); // 200 tokens used, none credited
    await stack.check(page, "console-customer-usage");

    // the meter's customers, most consumed first
    await page.goto(`${stack.url}/dashboard/meters/${w.tokensId}/show/customers`);
    await page.getByText("bob@example.com").first().waitFor();
    await page.waitForLoadState("networkidle");
    await expect(rows(page).first().textContent()).resolves.toContain("ada@example.com");
    await stack.check(page, "console-meter-customers", { screenshot: false });
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("shows a meter's quantities over a chosen window and interval, as a chart or a table; a refused start shows under From", async () => {
    const page = await stack.newPage({ allow: [{ status: 422, url: "/quantities" }] });
    await signIn(stack, page, w.token);
    await page.goto(`${stack.url}/dashboard/meters/${w.tokensId}/show`);
    await expect.poll(async () => (await page.getByTestId("quantities-total").textContent()) ?? "", { timeout: 15_000 }).toBe("Total: 207");
    await page.locator(".recharts-bar-rectangle").first().waitFor();
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-meter-usage");

    // a table, by hour over the last day: the two calls of the last 3 hours
    await page.getByRole("button", { name: "Table" }).click();
    await page.getByLabel("Interval").click();
    await page.getByRole("option", { name: "Hour" }).click();
    await page.getByLabel("Window").click();
    await page.getByRole("option", { name: "Last 1 day" }).click();
    await expect.poll(async () => (await page.getByTestId("quantities-total").textContent()) ?? "", { timeout: 15_000 }).toBe("Total: 57");
    const table = page.getByRole("table", { name: "Quantities" });
    await expect.poll(() => table.locator("tbody tr").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(24);
    await expect(table.getByRole("cell", { name: "50", exact: true }).count()).resolves.toBe(1);
    await stack.check(page, "console-meter-table", { screenshot: false });

    // chosen dates, the first one before the server keeps usage: its refusal under From
    await page.getByLabel("Interval").click();
    await page.getByRole("option", { name: "Month" }).click();
    await page.getByLabel("Window").click();
    await page.getByRole("option", { name: "Dates…" }).click();
    await page.getByRole("textbox", { name: "To", exact: true }).fill(new Date().toISOString().slice(0, 10));
    const from = page.getByRole("textbox", { name: "From", exact: true });
    await from.fill("2020-01-01");
    await expect.poll(async () => from.getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("true");
    await page.getByText(/greater than or equal to 2023/).waitFor();
    await stack.check(page, "console-meter-422", { mobile: false, screenshot: false });
    // a start the server takes: the months' totals
    await from.fill(`${new Date().getUTCFullYear() - 1}-01-01`);
    await expect.poll(async () => from.getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("false");
    await expect.poll(async () => (await page.getByTestId("quantities-total").textContent()) ?? "", { timeout: 15_000 }).toBe("Total: 207");
  });

  it("edits a meter's unit to a custom label shown per a multiplier, and shows its quantities in it", async () => {
    const polar = stack.polar(w.token);
    // the newest 0.x client reads the unit (0.34.17 does not know it)
    const newer = new Polar049({ accessToken: w.token, serverURL: stack.url });
    const requests = await polar.meters.create({
      name: "Requests",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "count" },
    });
    const page = await stack.newPage();
    await signIn(stack, page, w.token);
    await page.goto(`${stack.url}/dashboard/meters/${requests.id}`);
    await page.getByRole("combobox", { name: /^Unit/ }).click();
    await page.getByRole("option", { name: "Custom" }).click();
    await page.getByLabel("Unit label").fill("1K requests");
    await page.getByLabel("Shown per").fill("1000");
    await page.waitForLoadState("networkidle");
    await stack.check(page, "console-meter-unit");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await newer.meters.get({ id: requests.id })).customLabel, { timeout: 15_000 }).toBe("1K requests");
    expect(await newer.meters.get({ id: requests.id })).toMatchObject({ unit: "custom", customMultiplier: 1000 });

    // 4 calls: 0.004 of a thousand
    await page.goto(`${stack.url}/dashboard/meters/${requests.id}/show`);
    await expect
      .poll(async () => (await page.getByTestId("quantities-total").textContent()) ?? "", { timeout: 15_000 })
      .toBe("Total: 0.004 × 1K requests");
    await page.goto(`${stack.url}/dashboard/meters`);
    await page.getByText("1K requests (shown per 1,000)").waitFor();

    // back to plain units: the label goes
    await page.goto(`${stack.url}/dashboard/meters/${requests.id}`);
    await page.getByRole("combobox", { name: /^Unit/ }).click();
    await page.getByRole("option", { name: "Units" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await newer.meters.get({ id: requests.id })).unit, { timeout: 15_000 }).toBe("scalar");
    expect((await newer.meters.get({ id: requests.id })).customLabel).toBeNull();
    expect(stack.takeProblems(page)).toEqual([]);
  });
});
