// Assertions shared by the API tests.
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { expect } from "vitest";

/** Awaits a call that must fail with `cls` (a typed error of the official client) and returns the error. */
export async function rejects<T extends Error>(p: Promise<unknown>, cls: new (...a: never[]) => T): Promise<T> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as T;
}

/** Every item of every page of an official-client list call (its page iterator). */
export async function collectPages<T>(pages: AsyncIterable<{ result: { items: T[] } }>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(...page.result.items);
  return out;
}

/** Awaits a call that must fail with a 422 and returns the `loc` of its first issue (the field it names). */
export async function locOf(p: Promise<unknown>): Promise<unknown[] | undefined> {
  const err = await rejects(p, HTTPValidationError);
  return err.data$.detail?.[0]?.loc;
}
