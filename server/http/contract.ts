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
 * contract's numbers, booleans and lists (a single value where a list is expected). `open`: the
 * open forms of a closed contract's components (`closedContract`).
 */
export function contractAjv(schemas: Record<string, Schema>, coerce: boolean, open?: Record<string, Schema>) {
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
  ajv.addSchema({ components: open ? { schemas, open } : { schemas } }, "contract");
  return ajv;
}

/** The keywords whose value is a schema, a list of schemas, or a map of them. */
const SUBSCHEMA = new Set(["items", "additionalProperties", "unevaluatedProperties", "not", "if", "then", "else", "contains"]);
const SUBSCHEMAS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const COMPONENT_REF = /#\/components\/schemas\/([^/]+)$/;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The contract closed to what it declares: every object schema that lists its properties and
 * leaves the others open gets `unevaluatedProperties: false`, in the components and in the answers
 * `close` is given. A schema built with `allOf` is closed as a whole, and its members are referred
 * to in their open form (`#/components/open/<Name>`: closed below their top level), which lets the
 * whole's own properties through.
 */
export function closedContract(schemas: Record<string, Schema>) {
  const openNames = new Set<string>();
  const transform = (node: Schema, top: "closed" | "open"): Schema => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "allOf" && Array.isArray(value)) out[key] = value.map(opened);
      else if (top === "open" && (key === "anyOf" || key === "oneOf") && Array.isArray(value)) out[key] = value.map(opened);
      else if (SUBSCHEMAS.has(key) && Array.isArray(value)) out[key] = value.map(close);
      else if (SUBSCHEMA.has(key)) out[key] = close(value);
      else if (SCHEMA_MAPS.has(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, close(v)]));
      else out[key] = value;
    }
    const leftOpen = !("additionalProperties" in node || "unevaluatedProperties" in node || "patternProperties" in node);
    if (top === "closed" && leftOpen && ("properties" in node || "allOf" in node)) out.unevaluatedProperties = false;
    return out;
  };
  const close = (node: unknown): unknown => (isSchema(node) ? transform(node, "closed") : node);
  // A member of an allOf (or of an open schema's union): its own properties left to the whole to close.
  const opened = (member: unknown): unknown => {
    if (!isSchema(member)) return member;
    const ref = typeof member.$ref === "string" ? member.$ref : "";
    const name = COMPONENT_REF.exec(ref)?.[1];
    if (name === undefined) return transform(member, "open");
    openNames.add(name);
    return { $ref: ref.replace("#/components/schemas/", "#/components/open/") };
  };
  const closed = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, transform(s, "closed")]));
  const open: Record<string, Schema> = {};
  // A Set's iteration also meets the names added while it runs: those the opened schemas' unions open.
  for (const name of openNames) open[name] = transform(schemas[name] ?? {}, "open");
  return { schemas: closed, open, close: (answer: Schema) => transform(answer, "closed") };
}

/**
 * The validator of an operation's answer with this status (its own, its class's `2XX`, or
 * `default`), if the contract has one. The answers of the operations `closed` names are checked
 * against the closed contract (`closedContract`): they may carry no property it does not declare.
 */
export function responseValidators(
  schemas: Record<string, Schema>,
  operations: ContractRoute[],
  closed: (operationId: OperationId) => boolean = () => false,
) {
  const ajv = contractAjv(schemas, false);
  // Built on the first closed answer: only the test pipeline checks answers at all.
  let strict: { ajv: ReturnType<typeof contractAjv>; close: (answer: Schema) => Schema } | undefined;
  const strictOf = () => {
    if (strict) return strict;
    const contract = closedContract(schemas);
    return (strict = { ajv: contractAjv(contract.schemas, false, contract.open), close: contract.close });
  };
  const compiled = new Map<string, ValidateFunction | null>();
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return (operationId: OperationId, status: number): ValidateFunction | null => {
    const key = `${operationId} ${status}`;
    if (!compiled.has(key)) {
      const responses = byId.get(operationId)?.responses ?? {};
      const schema = responses[status] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
      if (!schema) compiled.set(key, null);
      else if (closed(operationId)) {
        const { ajv: closedAjv, close } = strictOf();
        compiled.set(key, closedAjv.compile(close(schema)));
      } else compiled.set(key, ajv.compile(schema));
    }
    return compiled.get(key)!;
  };
}
