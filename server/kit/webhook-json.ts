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

type Orderer = (value: unknown) => unknown;

/** The schema of anything: an object's keys keep their order, values are copied as they are. */
const ANY: Schema = {};

/** The orderer of each schema, built on its first use (so recursive schemas are fine). */
const orderers = new WeakMap<Schema, Orderer>();

function ordererOf(schema: Schema): Orderer {
  const known = orderers.get(schema);
  if (known) return known;
  let built: Orderer | undefined;
  const lazy: Orderer = (value) => (built ??= build(schema))(value);
  orderers.set(schema, lazy);
  return lazy;
}

/** The branch of a union an object is: its discriminator's, else the first object branch naming all its keys. */
function branchOf(alts: Schema[], value: object, tag: string | undefined): Schema {
  const record = value as Record<string, unknown>;
  if (tag && tag in record) {
    const tagged = alts.find((a) => a.properties?.[tag]?.const === record[tag] || a.properties?.[tag]?.enum?.includes(record[tag]));
    if (tagged) return tagged;
  }
  const keys = Object.keys(record);
  return alts.find((a) => a.properties && keys.every((k) => k in a.properties!)) ?? alts.find((a) => a.properties) ?? ANY;
}

/** A function copying a value with every object's keys in the schema's order, the schema's walk done once. */
function build(schema: Schema): Orderer {
  const s = resolve(schema);
  const union = s.oneOf ?? s.anyOf;
  if (union) {
    const alts = union.map(resolve);
    const tag = s.discriminator?.propertyName;
    const scalar = ordererOf(alts.find((a) => !a.properties) ?? ANY);
    const objects = alts.filter((a) => a.properties);
    // One object branch (a nullable object): every object is that branch.
    const only = objects.length === 1 ? ordererOf(objects[0]) : null;
    return (value) => {
      if (!value || typeof value !== "object" || Array.isArray(value)) return scalar(value);
      return (only ?? ordererOf(branchOf(alts, value, tag)))(value);
    };
  }
  const item = ordererOf(s.items ?? ANY);
  const props = s.properties ?? {};
  const keys = Object.keys(props);
  const children = keys.map((key) => ordererOf(props[key]));
  const extra = ordererOf(typeof s.additionalProperties === "object" ? s.additionalProperties : ANY);
  return (value) => {
    if (Array.isArray(value)) return value.map(item);
    if (!value || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) if (keys[i] in record) out[keys[i]] = children[i](record[keys[i]]);
    for (const key of Object.keys(record)) if (!(key in props)) out[key] = extra(record[key]);
    return out;
  };
}

/** The event's body, `{"type":…,"timestamp":…,"data":…}`. */
export function webhookBody(type: string, timestamp: string, data: unknown): string {
  const schema = contract.webhooks[type]?.post.requestBody.content["application/json"].schema ?? ANY;
  return JSON.stringify(ordererOf(schema)({ type, timestamp, data }));
}
