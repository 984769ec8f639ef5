// generated/validators.ts: response validation against the contract. Precompiled ajv standalone
// code for the whole contract would be ~5 MB, so this emits the per-operation response table as
// data plus a lazily built Ajv2020 over generated/openapi.json's components: each schema compiles
// on first use (milliseconds), and the output stays deterministic.
import { HEADER, METHODS, q, type OpenApiDoc, type Schema } from "./model.js";

const CREF = "#/components/schemas/";

function rewriteRefs(s: Schema): Schema {
  if (Array.isArray(s)) return s.map(rewriteRefs);
  if (!s || typeof s !== "object") return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith(CREF)) out[k] = "borealis" + v;
    else if (k === "discriminator")
      continue; // informational for ajv (strict: false ignores it anyway)
    else out[k] = rewriteRefs(v);
  }
  return out;
}

export function emitValidators(doc: OpenApiDoc): Record<string, string> {
  const table: string[] = [];
  const bodyNames = new Set<string>();
  const entries: Array<[string, string]> = [];
  for (const [, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const rows: string[] = [];
      for (const code of Object.keys(op.responses).sort()) {
        const content = op.responses[code].content;
        if (!content) {
          rows.push(`    ${q(code)}: { contentType: null, schema: null }`);
          continue;
        }
        const ct = Object.keys(content)[0];
        const schema = content[ct].schema ?? {};
        if (typeof schema.$ref === "string" && schema.$ref.startsWith(CREF)) {
          const name = schema.$ref.slice(CREF.length);
          bodyNames.add(name);
          rows.push(`    ${q(code)}: { contentType: ${q(ct)}, schema: ${q(name)} }`);
        } else {
          rows.push(`    ${q(code)}: { contentType: ${q(ct)}, schema: ${JSON.stringify(rewriteRefs(schema))} }`);
        }
      }
      entries.push([op.operationId, `  ${q(op.operationId)}: {\n${rows.join(",\n")},\n  },`]);
    }
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  table.push(...entries.map((e) => e[1]));
  const names = [...bodyNames].sort();

  const text = `${HEADER}
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { OperationId } from "./handlers.js";

/** Component schemas that are a response body of some operation. */
export const responseBodySchemas = [
${names.map((n) => `  ${q(n)},`).join("\n")}
] as const;
export type ResponseBodySchema = (typeof responseBodySchemas)[number];

type ResponseSpec = { contentType: string | null; schema: string | Record<string, unknown> | null };

/** Every declared response of every operation: a component name, an inline schema, or null (no body). */
export const responseSpecs: Record<OperationId, Record<string, ResponseSpec>> = {
${table.join("\n")}
};

let ajv: InstanceType<typeof Ajv2020.default> | undefined;
const inline = new Map<string, ValidateFunction>();

/** The shared Ajv2020 instance (strict: false, formats on) holding the contract's component schemas as "borealis#/components/schemas/<Name>". */
export function contractAjv(): InstanceType<typeof Ajv2020.default> {
  if (ajv) return ajv;
  const spec = JSON.parse(readFileSync(new URL("./openapi.json", import.meta.url), "utf8"));
  const instance = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(instance);
  instance.addSchema({ $id: "borealis", components: { schemas: spec.components.schemas } });
  ajv = instance;
  return instance;
}

/** The validator of a component schema, e.g. schemaValidator("Product"). */
export function schemaValidator(name: ResponseBodySchema | (string & {})): ValidateFunction {
  const v = contractAjv().getSchema(\`borealis#/components/schemas/\${name}\`);
  if (!v) throw new Error(\`no schema \${name} in the contract\`);
  return v;
}

export interface ResponseCheck {
  valid: boolean;
  errors: ErrorObject[] | null;
  /** a problem that is not a schema violation (undeclared status, body on a bodiless response) */
  message?: string;
}

/** Validate a response body (already parsed JSON; a string for text/csv) against the contract. */
export function validateResponse(operationId: OperationId, status: number | string, body: unknown): ResponseCheck {
  // A status the operation does not name falls under its \`default\` response, as OpenAPI reads it.
  const spec = responseSpecs[operationId]?.[String(status)] ?? responseSpecs[operationId]?.default;
  if (!spec) return { valid: false, errors: null, message: \`\${operationId} does not declare status \${status}\` };
  if (spec.schema === null) {
    const empty = body === null || body === undefined || body === "";
    return empty ? { valid: true, errors: null } : { valid: false, errors: null, message: \`\${operationId} \${status} has no body\` };
  }
  let validate: ValidateFunction;
  if (typeof spec.schema === "string") validate = schemaValidator(spec.schema);
  else {
    const key = \`\${operationId} \${status}\`;
    let v = inline.get(key);
    if (!v) {
      v = contractAjv().compile(spec.schema);
      inline.set(key, v);
    }
    validate = v;
  }
  const valid = validate(body) as boolean;
  return { valid, errors: valid ? null : (validate.errors ?? null) };
}
`;
  return { "validators.ts": text };
}
