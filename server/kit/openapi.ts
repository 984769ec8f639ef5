// The bundled contract as the server reads it at start (generated/openapi.json): the API versions'
// shapes and the webhooks' payloads are built from it, and the API serves it with its docs page.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const generatedDir = fileURLToPath(new URL("../../generated/", import.meta.url));

/** The bundled contract (generated/openapi.json), as written. */
export function readContract() {
  return JSON.parse(readFileSync(generatedDir + "openapi.json", "utf8"));
}
