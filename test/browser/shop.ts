// A small shop for the browser tests, made through the official client: an organization with a
// token, and helpers for what a buyer does on the hosted checkout page and the portal's sign-in.
import type { Polar } from "@polar-sh/sdk";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { latestMail, orgWithToken } from "../harness/index.js";
import type { BrowserStack } from "./harness.js";

export interface Shop {
  org: { id: string; slug: string; name: string };
  token: string;
  polar: Polar;
}

export async function openShop(stack: BrowserStack, name = "Aurora Tools"): Promise<Shop> {
  const { org, token } = await orgWithToken(stack.knex);
  await stack.knex("organizations").where({ id: org.id }).update({ name });
  return { org: { ...org, name }, token, polar: stack.polar(token) };
}

/** The text of a locator, waited for until it is `text` (or matches it). */
export async function expectText(page: Page, testId: string, text: string | RegExp): Promise<void> {
  const locator = page.getByTestId(testId);
  const poll = expect.poll(async () => ((await locator.count()) ? ((await locator.first().textContent()) ?? "") : ""), { timeout: 15_000 });
  if (typeof text === "string") await poll.toBe(text);
  else await poll.toMatch(text);
}

/** Waits until the page shows `text` somewhere. */
export async function see(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: "visible", timeout });
}

/** Types into a field and leaves it (the page sends the change on blur). */
export async function fill(page: Page, label: string | RegExp, value: string): Promise<void> {
  const field =
    typeof label === "string"
      ? page.getByRole("textbox", { name: label, exact: true }).or(page.getByRole("spinbutton", { name: label, exact: true }))
      : page.getByLabel(label);
  await field.fill(value);
  await field.blur();
}

/** Fills the sandbox card form. */
export async function card(page: Page, number: string): Promise<void> {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM / YY)").fill("1234");
  await page.getByLabel("Security code").fill("123");
}

/** Counts the public checkout calls a page makes, by method. */
export function countCheckoutCalls(page: Page): { get: number; patch: number; confirm: number } {
  const counts = { get: 0, patch: 0, confirm: 0 };
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (!path.startsWith("/v1/checkouts/client/")) return;
    if (path.endsWith("/confirm")) counts.confirm++;
    else if (req.method() === "PATCH") counts.patch++;
    else if (req.method() === "GET") counts.get++;
  });
  return counts;
}

/** On the portal's sign-in page: asks for a code for `email` and reads it from the email Mailpit received. */
export async function emailedCode(page: Page, email: string): Promise<string> {
  const asked = new Date(Date.now() - 1000);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await see(page, "a code is on its way");
  const mail = await latestMail(email, { subject: /sign-in code/, after: asked });
  return /sign-in code: ([A-Z0-9]{6})$/.exec(mail.subject)![1];
}
