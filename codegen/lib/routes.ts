// generated/routes.json and routes.ts: each operation as the route the server mounts (method, url,
// the schemas of its path, query and body, its answers' schemas), and the component schemas as the
// server's Ajv validates them. Schemas refer to the components as `contract#/components/schemas/…`.
import { HEADER, METHODS, type OpenApiDoc, type Schema } from "./model.js";

const CONTRACT_ID = "contract";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

/**
 * The contract as Ajv validates it: a discriminator's `mapping` (which codegen reads) removed,
 * since Ajv picks the variant by the tag's `const` in each of the union's schemas instead; and
 * the union typed as an object, since Ajv's discriminator lets anything else (a string, null, a
 * list) through without looking at a variant.
 */
function forValidation(node: Schema): Schema {
  if (Array.isArray(node)) return node.map(forValidation);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, Schema> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "discriminator" && value && typeof value === "object") {
      const { mapping: _mapping, ...rest } = value as Record<string, unknown>;
      out[key] = rest;
    } else out[key] = forValidation(value);
  }
  if (out.discriminator && out.type === undefined) out.type = "object";
  return out;
}

/** A schema of the contract that refers to the contract's components by the contract's id. */
const anchored = (schema: Schema): Schema =>
  forValidation(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${CONTRACT_ID}#/`)));

/**
 * The path's or query's parameters as one object: nothing undeclared, except what a free-form
 * parameter (one whose schema has `additionalProperties`, like `metadata`) lets through.
 */
function objectOf(parameters: Parameter[]): Schema {
  const freeForm = parameters.map((p) => p.schema?.additionalProperties).filter((a) => a !== undefined);
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ?? {}])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: freeForm.at(-1) ?? false,
  };
}

/** Every operation as a route, in the contract's order (the order of an `Allow` header's methods). */
function routesOf(doc: OpenApiDoc): Schema[] {
  const routes: Schema[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      const parameters: Parameter[] = (op.parameters ?? []).map((p: Parameter | { $ref: string }) => {
        if (!("$ref" in p)) return p;
        const found = doc.components.parameters?.[p.$ref.split("/").pop() ?? ""];
        if (!found) throw new Error(`${op.operationId}: no parameter ${p.$ref}`);
        return found;
      });
      const body = op.requestBody ? Object.values<{ schema?: Schema }>(op.requestBody.content)[0]?.schema : undefined;
      const responses: Record<string, Schema> = {};
      for (const [status, response] of Object.entries<Schema>(op.responses ?? {})) {
        const schema = response.content?.["application/json"]?.schema;
        if (schema) responses[status] = anchored(schema);
      }
      routes.push({
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
  return routes;
}

const TYPES = `${HEADER}
import { readFileSync } from "node:fs";
import type { OperationId } from "./handlers.js";

type Schema = Record<string, unknown>;

/** One operation of the contract, as a route: its path template in both spellings, its request and answer schemas. */
export interface ContractRoute {
  operationId: OperationId;
  method: "get" | "put" | "post" | "patch" | "delete";
  path: string;
  /** The template with \`:name\` for \`{name}\`. */
  url: string;
  schema: { params: Schema; querystring: Schema; body?: Schema };
  /** The JSON answers' schemas, by status. */
  responses: Record<string, Schema>;
}

/** The routes (routes.json), and the component schemas they refer to, as \`contract#/components/schemas/<Name>\`. */
export function contractRoutes(): { routes: ContractRoute[]; schemas: Record<string, Schema> } {
  return JSON.parse(readFileSync(new URL("./routes.json", import.meta.url), "utf8"));
}
`;

export function emitRoutes(doc: OpenApiDoc): Record<string, string> {
  // One route and one schema a line.
  const routes = routesOf(doc).map((r) => JSON.stringify(r));
  const schemas = Object.entries(forValidation(doc.components.schemas)).map(([name, s]) => `${JSON.stringify(name)}:${JSON.stringify(s)}`);
  const json = `{"routes":[\n${routes.join(",\n")}\n],\n"schemas":{\n${schemas.join(",\n")}\n}}\n`;
  return { "routes.json": json, "routes.ts": TYPES };
}
