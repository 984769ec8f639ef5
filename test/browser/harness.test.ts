// The browser-test harness itself, on a fixture app built and served like the real ones: Chromium
// opens the API's pages, history fallback serves deep links, the guard catches console errors,
// uncaught exceptions, HTTP errors, failed requests and requests the CSP blocks, and check() catches axe violations and
// sideways scroll at 375 px.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { UiApp } from "../../server/kit/ui-apps.js";
import { useBrowserStack } from "./harness.js";

const fixture: UiApp = { name: "fixture", dir: "test/browser/fixture", base: "/_fixture/", routes: ["/fixture/:id/*"] };
const shots = mkdtempSync(path.join(os.tmpdir(), "borealis-shots-"));
process.env.SCREENSHOTS_DIR = shots;
// Written here whatever the run says (CI turns them off elsewhere): this file checks they are.
delete process.env.SCREENSHOTS;

describe("browser harness", { timeout: 60_000 }, () => {
  const stack = useBrowserStack({ apps: [fixture], worker: false });
  afterAll(() => rmSync(shots, { recursive: true, force: true }));

  it("serves a deep link with the app's page, its assets, and the API beside it", async () => {
    const page = await stack.newPage();
    await page.goto(`${stack.url}/fixture/abc/deeper/still`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Fixture at /fixture/abc/deeper/still");
    await page.getByRole("button", { name: "Check health" }).click();
    await page.getByRole("status").filter({ hasText: "API: ok" }).waitFor();
    await stack.check(page, "fixture");
    expect(existsSync(path.join(shots, "fixture.png"))).toBe(true);
    expect(existsSync(path.join(shots, "fixture-375.png"))).toBe(true);

    // Under the base: a missing asset is a 404, not the page; other paths are the page.
    const asset = await fetch(`${stack.url}/_fixture/assets/missing-123.js`);
    expect(asset.status).toBe(404);
    const page2 = await fetch(`${stack.url}/_fixture/some/route`);
    expect(page2.status).toBe(200);
    expect(page2.headers.get("cache-control")).toBe("no-cache");
    expect(await page2.text()).toContain('<main id="root">');
    // Not the app's: the API answers.
    const other = await fetch(`${stack.url}/fixture`);
    expect(other.status).toBe(404);
  });

  it.each([
    ["console-error", /console error: something broke/],
    ["throw", /uncaught exception: uncaught in a timer/],
    ["http-404", /HTTP 404: GET .*\/v1\/checkouts\/client\/no-such-secret/],
    ["refused", /request failed: GET http:\/\/127\.0\.0\.1:\d+\/unreachable: net::ERR_CONNECTION_REFUSED/],
    ["csp", /console error: .*http:\/\/127\.0\.0\.1:9\/unreachable.*Content Security Policy/],
  ])("the guard catches ?mode=%s", async (mode, expected) => {
    const page = await stack.newPage();
    await page.route("**/unreachable", (route) =>
      route.request().url().startsWith(stack.url) ? route.abort("connectionrefused") : route.fallback(),
    );
    await page.goto(`${stack.url}/fixture/x?mode=${mode}`);
    await expect.poll(() => stack.takeProblems(page).join("\n"), { timeout: 10_000 }).toMatch(expected);
  });

  it("lets an expected failure through when the test allows it", async () => {
    const page = await stack.newPage({ allow: [{ status: 404, url: "/v1/checkouts/client/" }, { console: "something broke" }] });
    await page.goto(`${stack.url}/fixture/x?mode=http-404`);
    await page.waitForLoadState("networkidle");
    await page.goto(`${stack.url}/fixture/x?mode=console-error`);
    await page.waitForLoadState("networkidle");
    expect(stack.takeProblems(page)).toEqual([]);
  });

  it("check() fails on a serious axe violation and on sideways scroll at 375 px", async () => {
    const page = await stack.newPage();
    await page.goto(`${stack.url}/fixture/x?mode=axe`);
    await expect(stack.check(page, "fixture-axe", { screenshot: false })).rejects.toThrow(/axe critical button-name/);
    await page.goto(`${stack.url}/fixture/x?mode=wide`);
    await expect(stack.check(page, "fixture-wide", { screenshot: false })).rejects.toThrow(/375 px: the page scrolls sideways by \d+ px/);
  });
});
