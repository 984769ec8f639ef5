// The contract's schemas as Ajv validates them (generated/routes.json): a request's path, query
// and body, with Ajv's complaints as the contract's 422 issues; and in tests the answers, those
// that buyers and portal customers read checked against the contract closed to what it declares.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import { operations } from "../../generated/operations.js";
import type { OperationId } from "../../generated/handlers.js";
import type { ContractRoute } from "../../generated/routes.js";
import type { ValidationIssue } from "./errors.js";
import { isUuid } from "./ids.js";

type Schema = Record<string, unknown>;

/**
 * An Ajv that knows the contract's components. `coerce`: the path and query's strings become the
 * contract's numbers, booleans and lists (a single value where a list is expected). `open`: the
 * open forms of a closed contract's components (`closedContract`). `optimize: false` compiles
 * about a third faster into slower code: for the answers' checks, which only test servers run.
 */
export function contractAjv(
  schemas: Record<string, Schema>,
  { coerce = false, open, optimize = true }: { coerce?: boolean; open?: Record<string, Schema>; optimize?: boolean } = {},
) {
  // discriminator: a tagged union (prices by amount_type, benefits by type) is checked against the
  // variant its tag names only, so a 422 lists that variant's complaints, not one per variant.
  const ajv = new Ajv2020.default({
    strict: false,
    allErrors: true,
    validateFormats: true,
    validateSchema: false,
    discriminator: true,
    coerceTypes: coerce ? "array" : false,
    code: { optimize },
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

/** An operation's answer check for a status, compiled on first use; null when the contract has none. */
export type ResponseChecks = (operationId: OperationId, status: number) => ValidateFunction | null;

/**
 * The validator of an operation's answer with this status (its own, its class's `2XX`, or
 * `default`), if the contract has one. The answers of the operations `closed` names are checked
 * against the closed contract (`closedContract`): they may carry no property it does not declare.
 */
export function responseValidators(
  schemas: Record<string, Schema>,
  operations: ContractRoute[],
  closed: (operationId: OperationId) => boolean = () => false,
): ResponseChecks {
  const ajv = contractAjv(schemas, { optimize: false });
  // Built on the first closed answer: only the test pipeline checks answers at all.
  let strict: { ajv: ReturnType<typeof contractAjv>; close: (answer: Schema) => Schema } | undefined;
  const strictOf = () => {
    if (strict) return strict;
    const contract = closedContract(schemas);
    return (strict = { ajv: contractAjv(contract.schemas, { open: contract.open, optimize: false }), close: contract.close });
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

/**
 * The operations whose answers someone other than the merchant reads: a buyer (the checkout by its
 * client secret, no token or an optional one) or a portal customer. Their answers are checked
 * against the closed contract: a property it does not declare there is a leak.
 */
export function readByOutsiders(operationId: OperationId): boolean {
  const { security } = operations[operationId];
  return operationId.startsWith("customer_portal:") || (security !== "access_token" && security !== "client_credentials");
}

/** Ajv errors of the request → FastAPI-style issues with `loc` starting at body/query/path. */
export function toIssues(errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    const parts = e.instancePath
      .split("/")
      .slice(1)
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const where = parts.shift();
    const head = where === "requestBody" ? "body" : where === "path" ? "path" : (where ?? "body");
    const loc: (string | number)[] = [head, ...parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
    let type = e.keyword;
    let msg = e.message ?? "Invalid value";
    if (e.keyword === "required") {
      loc.push((e.params as { missingProperty: string }).missingProperty);
      type = "missing";
      msg = "Field required";
    } else if (e.keyword === "additionalProperties") {
      loc.push((e.params as { additionalProperty: string }).additionalProperty);
      type = "extra_forbidden";
      msg = "Extra inputs are not permitted";
    } else if (e.keyword === "discriminator") {
      const { tag, tagValue } = e.params as { tag: string; tagValue?: unknown };
      loc.push(tag);
      if (tagValue === undefined) {
        type = "union_tag_not_found";
        msg = `Unable to extract tag using discriminator '${tag}'`;
      } else {
        type = "union_tag_invalid";
        msg = `Input tag '${String(tagValue)}' found using '${tag}' does not match any of the expected tags`;
      }
    } else if (e.keyword === "format" && (e.params as { format: string }).format === "uuid") {
      // An id filter or path id that is not a UUID, in pydantic's words (as Polar answers).
      type = "uuid_parsing";
      msg = "Input should be a valid UUID";
    } else if (e.keyword === "parse") {
      type = "json_invalid";
      msg = `JSON decode error: ${e.message}`;
    }
    const key = `${loc.join(".")}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg, type });
  }
  return issues.length ? issues : [{ loc: ["body"], msg: "Invalid request", type: "value_error" }];
}
