// The bundled contract (generated/openapi.json): the webhooks' payloads are shaped from it, and the
// API serves it with its docs page. The API's routes, validators and serialisers read routes.json.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const generatedDir = fileURLToPath(new URL("../../generated/", import.meta.url));

/** The bundled contract (generated/openapi.json), as written. */
export function readContract() {
  return JSON.parse(readFileSync(generatedDir + "openapi.json", "utf8"));
}
