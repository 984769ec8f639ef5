// The contract as the HTTP layer serves it: the bundled openapi.json, each operation as a route
// with the schemas of its path, query and body, and the Ajv that validates them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { isUuid } from "../kit/ids.js";

export const generatedDir = fileURLToPath(new URL("../../generated/", import.meta.url));

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface OperationObject {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Contract {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { parameters?: Record<string, Parameter> };
}

/** One operation of the contract, as a route: its path template in both spellings and its request schemas. */
export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  /** The template with `:name` for `{name}`. */
  url: string;
  schema: { params?: Schema; querystring?: Schema; body?: Schema };
  responses: Record<string, Schema>;
}

/** The bundled contract (generated/openapi.json), as written. */
export function readContract() {
  return JSON.parse(readFileSync(generatedDir + "openapi.json", "utf8"));
}

const METHODS = new Set(["get", "put", "post", "patch", "delete"]);
const CONTRACT_ID = "contract";

/** A schema of the contract that refers to the contract's components by the contract's id. */
function anchored<T>(schema: T): T {
  return forValidation(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${CONTRACT_ID}#/`)));
}

/**
 * The path's or query's parameters as one object: nothing undeclared, except what a free-form
 * parameter (one whose schema has `additionalProperties`, like `metadata`) lets through.
 */
function objectOf(parameters: Parameter[]): Schema {
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  const freeForm = parameters.map((p) => p.schema?.additionalProperties).filter((a) => a !== undefined);
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ?? {}])),
    required,
    additionalProperties: freeForm.at(-1) ?? false,
  };
}

/** Every operation of the contract, with its schemas anchored to the contract (`contractAjv`). */
export function contractOperations(contract: Contract): ContractOperation[] {
  const out: ContractOperation[] = [];
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const parameters = (op.parameters ?? []).map((p) => ("$ref" in p ? contract.components!.parameters![p.$ref.split("/").pop()!] : p));
      const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
      const responses: Record<string, Schema> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const schema = response.content?.["application/json"]?.schema;
        if (schema) responses[status] = anchored(schema);
      }
      out.push({
        operationId: op.operationId,
        method,
        path,
        url: path.replace(/\{([^}]+)\}/g, ":$1"),
        schema: anchored({
          params: objectOf(parameters.filter((p) => p.in === "path")),
          querystring: objectOf(parameters.filter((p) => p.in === "query")),
          body: body && (op.requestBody?.required ? body : { anyOf: [{ type: "null" }, body] }),
        }),
        responses,
      });
    }
  }
  return out;
}

/**
 * The query string as the contract reads it: a repeated key is a list (`id=a&id=b`, however many),
 * `key[sub]=v` is a deepObject entry (`metadata[tier]=pro`), nested as deep as the brackets go
 * (`metadata[a][b]=v` is an object inside `metadata`, which the validator then refuses like a
 * body's). A key given both as a value and as an object (`customer_id=a&customer_id[x]=b`) keeps
 * both in an object, which no scalar or list parameter accepts. Keys that Object.prototype has
 * (its prototype's accessor, constructor, toString, …) would reach it: they are dropped.
 */
const QUERY_KEY = /^([^[\]]+)((?:\[[^\]]*\])*)$/;
export function parseQuery(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (target: Record<string, unknown>, key: string, value: string) => {
    const cur = Object.hasOwn(target, key) ? target[key] : undefined;
    if (cur && typeof cur === "object" && !Array.isArray(cur)) add(cur as Record<string, unknown>, "", value);
    else target[key] = cur === undefined ? value : Array.isArray(cur) ? [...cur, value] : [cur, value];
  };
  for (const [key, value] of new URLSearchParams(raw)) {
    const m = QUERY_KEY.exec(key);
    const path = m ? [m[1], ...Array.from(m[2].matchAll(/\[([^\]]*)\]/g), (x) => x[1])] : [key];
    if (path.some((k) => k in Object.prototype)) continue;
    let target = out;
    for (const k of path.slice(0, -1)) {
      const cur = Object.hasOwn(target, k) ? target[k] : undefined;
      if (cur && typeof cur === "object" && !Array.isArray(cur)) target = cur as Record<string, unknown>;
      else target = target[k] = cur === undefined ? {} : { "": cur };
    }
    add(target, path[path.length - 1], value);
  }
  return out;
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

/**
 * An Ajv that knows the contract's components. `coerce`: the path and query's strings become the
 * contract's numbers, booleans and lists (a single value where a list is expected).
 */
export function contractAjv(contract: unknown, coerce: boolean) {
  // discriminator: a tagged union (prices by amount_type, benefits by type) is checked against the
  // variant its tag names only, so a 422 lists that variant's complaints, not one per variant.
  const ajv = new Ajv2020.default({
    strict: false,
    allErrors: true,
    validateFormats: true,
    validateSchema: false,
    discriminator: true,
    coerceTypes: coerce ? "array" : false,
  });
  addFormats.default(ajv);
  // A uuid is what the services take for one (ajv-formats' also lets a "urn:uuid:" prefix through).
  ajv.addFormat("uuid", { type: "string", validate: isUuid });
  ajv.addSchema(forValidation(contract) as Schema, CONTRACT_ID);
  return ajv;
}

/** The validator of an operation's answer with this status (its own, its class's `2XX`, or `default`), if the contract has one. */
export function responseValidators(contract: unknown, operations: ContractOperation[]) {
  const ajv = contractAjv(contract, false);
  const compiled = new Map<string, ValidateFunction | null>();
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return (operationId: string, status: number): ValidateFunction | null => {
    const key = `${operationId} ${status}`;
    if (!compiled.has(key)) {
      const responses = byId.get(operationId)?.responses ?? {};
      const schema = responses[status] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
      compiled.set(key, schema ? ajv.compile(schema) : null);
    }
    return compiled.get(key)!;
  };
}
