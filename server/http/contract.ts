// The contract as the HTTP layer loads it: the bundled openapi.json, prepared for Ajv, behind one
// openapi-backend instance configured the way every rule in server/http/routing.ts and the pin
// tests (test/http/openapi-backend.test.ts) assume.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OpenAPIBackend } from "openapi-backend";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Options as AjvOptions } from "ajv";
import { isUuid } from "../kit/ids.js";

export const generatedDir = fileURLToPath(new URL("../../generated/", import.meta.url));

// openapi-backend builds an Ajv per operation on its first request (quick: true); checking each
// schema against the meta-schema there compiled the meta-schema every time (half of a first
// request's cost). The contract is linted when it is bundled (codegen), not at run time.
function ajvFactory(_orig: unknown, opts: AjvOptions) {
  // discriminator: a tagged union (prices by amount_type, benefits by type) is checked against the
  // variant its tag names only, so a 422 lists that variant's complaints, not one per variant.
  const ajv = new Ajv2020.default(
    Object.assign({}, opts, { strict: false, allErrors: true, validateFormats: true, validateSchema: false, discriminator: true }),
  );
  addFormats.default(ajv);
  // A uuid is what the services take for one (ajv-formats' also lets a "urn:uuid:" prefix through).
  ajv.addFormat("uuid", { type: "string", validate: isUuid });
  return ajv;
}

/**
 * The contract as Ajv validates it: a discriminator's `mapping` (which codegen reads) removed,
 * since Ajv picks the variant by the tag's `const` in each of the union's schemas instead; and
 * the union typed as an object, since Ajv's discriminator lets anything else (a string, null, a
 * list) through without looking at a variant.
 */
function forValidation<T>(node: T): T {
  if (Array.isArray(node)) return node.map(forValidation) as T;
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "discriminator" && value && typeof value === "object") {
      const { mapping: _mapping, ...rest } = value as Record<string, unknown>;
      out[key] = rest;
    } else out[key] = forValidation(value);
  }
  if (out.discriminator && out.type === undefined) out.type = "object";
  return out as T;
}
/** The bundled contract (generated/openapi.json), as written. */
export function readContract() {
  return JSON.parse(readFileSync(generatedDir + "openapi.json", "utf8"));
}

/** An openapi-backend over the contract, not yet initialised (register handlers, then `init()`). */
export function createBackend(contract = readContract()): OpenAPIBackend {
  const definition = forValidation(contract);
  return new OpenAPIBackend({
    definition,
    quick: true,
    validate: true,
    // The contract's collection paths end in "/" exactly as the official client sends them.
    ignoreTrailingSlashes: false,
    coerceTypes: true,
    ajvOpts: { strict: false },
    customizeAjv: ajvFactory,
  });
}
