// The answers' checks, compiled once per test process and shared by every file's API: each file
// gets fresh copies of our modules (test/setup/each-file.ts), which would compile them again.
import { contractRoutes } from "../../generated/routes.js";
import { readByOutsiders, responseValidators, type ResponseChecks } from "../../server/kit/contract.js";

declare global {
  var borealisResponseChecks: ResponseChecks | undefined;
}

export function sharedResponseChecks(): ResponseChecks {
  if (globalThis.borealisResponseChecks) return globalThis.borealisResponseChecks;
  const { routes, schemas } = contractRoutes();
  return (globalThis.borealisResponseChecks = responseValidators(schemas, routes, readByOutsiders));
}
