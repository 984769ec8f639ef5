// The contract as the HTTP layer validates it: the query string read as the contract's parameters,
// and the Ajv of the routes codegen compiled (generated/routes.json).
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import type { OperationId } from "../../generated/handlers.js";
import type { ContractRoute } from "../../generated/routes.js";
import { isUuid } from "../kit/ids.js";

type Schema = Record<string, unknown>;

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
 * An Ajv that knows the contract's components. `coerce`: the path and query's strings become the
 * contract's numbers, booleans and lists (a single value where a list is expected).
 */
export function contractAjv(schemas: Record<string, Schema>, coerce: boolean) {
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
  ajv.addSchema({ components: { schemas } }, "contract");
  return ajv;
}

/** The validator of an operation's answer with this status (its own, its class's `2XX`, or `default`), if the contract has one. */
export function responseValidators(schemas: Record<string, Schema>, operations: ContractRoute[]) {
  const ajv = contractAjv(schemas, false);
  const compiled = new Map<string, ValidateFunction | null>();
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return (operationId: OperationId, status: number): ValidateFunction | null => {
    const key = `${operationId} ${status}`;
    if (!compiled.has(key)) {
      const responses = byId.get(operationId)?.responses ?? {};
      const schema = responses[status] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
      compiled.set(key, schema ? ajv.compile(schema) : null);
    }
    return compiled.get(key)!;
  };
}
