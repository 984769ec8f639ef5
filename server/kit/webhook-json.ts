// Webhook bodies as Polar sends them: compact JSON with every object's keys in its contract
// schema's property order (pydantic's field order), keys the schema does not name after them. The
// bytes signed are the bytes sent, and a receiver that re-serialises the parsed body
// (`JSON.stringify(req.body)`, as @polar-sh/express does) gets them back exactly.
import { readFileSync } from "node:fs";

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string };
  const?: unknown;
  enum?: unknown[];
  type?: string | string[];
}

const contract: {
  webhooks: Record<string, { post: { requestBody: { content: { "application/json": { schema: Schema } } } } }>;
  components: { schemas: Record<string, Schema> };
} = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

function resolve(schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = contract.components.schemas[s.$ref.slice(s.$ref.lastIndexOf("/") + 1)] ?? {};
  return s;
}

/** The branch of a union a value is: its discriminator's, else the first object branch naming all its keys. */
function branchOf(alternatives: Schema[], value: unknown, tag: string | undefined): Schema {
  const alts = alternatives.map(resolve);
  if (!value || typeof value !== "object" || Array.isArray(value)) return alts.find((a) => !a.properties) ?? {};
  const record = value as Record<string, unknown>;
  if (tag && tag in record) {
    const tagged = alts.find((a) => a.properties?.[tag]?.const === record[tag] || a.properties?.[tag]?.enum?.includes(record[tag]));
    if (tagged) return tagged;
  }
  const keys = Object.keys(record);
  return alts.find((a) => a.properties && keys.every((k) => k in a.properties!)) ?? alts.find((a) => a.properties) ?? {};
}

/** The value with every object's keys in contract order. */
function ordered(value: unknown, schema: Schema): unknown {
  const s = resolve(schema);
  const alts = s.oneOf ?? s.anyOf;
  if (alts) return ordered(value, branchOf(alts, value, s.discriminator?.propertyName));
  if (Array.isArray(value)) return value.map((v) => ordered(v, s.items ?? {}));
  if (!value || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  const props = s.properties ?? {};
  const extra = typeof s.additionalProperties === "object" ? s.additionalProperties : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) if (key in record) out[key] = ordered(record[key], props[key]);
  for (const [key, v] of Object.entries(record)) if (!(key in props)) out[key] = ordered(v, extra);
  return out;
}

/** The event's body, `{"type":…,"timestamp":…,"data":…}`. */
export function webhookBody(type: string, timestamp: string, data: unknown): string {
  const schema = contract.webhooks[type]?.post.requestBody.content["application/json"].schema ?? {};
  return JSON.stringify(ordered({ type, timestamp, data }, schema));
}
