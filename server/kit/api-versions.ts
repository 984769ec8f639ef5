// The API versions a caller may speak (`Polar-Version: YYYY-MM`; the 0.x clients send none and get
// the default). A property marked `x-api-version` is left out of other versions' answers
// (`versionedShapes`, `versionedJson`'s compiled serialisers) and webhook payloads. An unknown
// version is a 404, as Polar answers it; under the 0.x clients a changed status follows their user-agent.
import fastJson from "fast-json-stringify";
import { ResourceNotFound, ResponseContractViolation } from "./errors.js";

export const API_VERSIONS = ["2026-04", "2026-10"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const DEFAULT_API_VERSION: ApiVersion = "2026-04";
export const VERSION_HEADER = "Polar-Version";

const served = (v: string): v is ApiVersion => (API_VERSIONS as readonly string[]).includes(v);

/** The version a /v1 request speaks, by its Polar-Version header (the default when none). */
export function requestedVersion(given: string | string[] | undefined): ApiVersion {
  const version = given === undefined || given === "" ? DEFAULT_API_VERSION : String(given).trim();
  if (!served(version)) {
    throw new ResourceNotFound(`API version ${JSON.stringify(given)} is not served: ${VERSION_HEADER} takes ${API_VERSIONS.join(" or ")}.`);
  }
  return version;
}

/** An official client of Polar's, as the user-agent every Speakeasy-generated one sends names it. */
export interface OfficialClient {
  language: string;
  version: readonly [number, number, number];
}

/**
 * The official client a request comes from: "speakeasy-sdk/<language> <version> <generator>
 * <document> <package>" ("speakeasy-sdk/typescript 0.49.0 2.918.3 2026-04 @polar-sh/sdk"); null
 * for any other caller.
 */
export function officialClient(userAgent: string | undefined): OfficialClient | null {
  const m = /^speakeasy-sdk\/([a-z]+) (\d+)\.(\d+)\.(\d+)/.exec(userAgent ?? "");
  return m ? { language: m[1] ?? "", version: [Number(m[2]), Number(m[3]), Number(m[4])] } : null;
}

/** Whether version `a` comes before `b` (major, minor, patch). */
function older(a: readonly number[], b: readonly number[]): boolean {
  const at = a.findIndex((n, i) => n !== b[i]);
  return at >= 0 && (a[at] ?? 0) < (b[at] ?? 0);
}

/**
 * Answers whose success status Polar changed after clients were generated: the operation answers
 * `status` (as Polar does), and the clients generated before the change, which read the answer
 * only from the old status, get `was`. `from`: by client language, the first version that reads
 * `status` (read from each client's response matchers).
 */
const CHANGED_STATUSES: Record<string, { status: number; was: number; from: Record<string, readonly [number, number, number]> }> = {
  // A refund: 201 since TypeScript 0.43.1 and Python 0.29.0; before, a 201's body was dropped.
  "refunds:create": { status: 201, was: 200, from: { typescript: [0, 43, 1], python: [0, 29, 0] } },
};

/**
 * Answers whose status Polar's generated clients never read: Polar answers `status`, every official
 * client matches only `clients` (client registration: RFC 7591's 201, a 200 in the clients).
 */
const CLIENT_STATUSES: Record<string, { status: number; clients: number }> = {
  "oauth2:clients:oauth2:create_client": { status: 201, clients: 200 },
};

/** The status to answer an operation with, for the client that sent `userAgent`. */
export function statusFor(operationId: string, status: number, userAgent: string | undefined): number {
  const fixed = CLIENT_STATUSES[operationId];
  if (fixed && fixed.status === status && officialClient(userAgent)) return fixed.clients;
  const changed = CHANGED_STATUSES[operationId];
  if (!changed || changed.status !== status) return status;
  const client = officialClient(userAgent);
  const from = client && changed.from[client.language];
  return from && older(client.version, from) ? changed.was : status;
}

/** The contract's JSON Schema, as far as shaping reads it. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  const?: unknown;
  enum?: unknown[];
  "x-api-version"?: { starting_from?: string; up_to?: string };
}
interface Document {
  paths: Record<
    string,
    Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
  /** The webhook deliveries, by event type: the body each one posts. */
  webhooks?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
}
/** The contract's operations as routes (generated/routes.json): their JSON answers by status, and the components. */
export interface ContractAnswers {
  routes: { operationId: string; responses: Record<string, Schema> }[];
  schemas: Record<string, Schema>;
}

/** The JSON answers of the contract's operations, by operation and status. */
function answersOf(doc: Document): [string, Schema][] {
  return Object.values(doc.paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      Object.entries(op.responses ?? {}).flatMap(([status, response]): [string, Schema][] => {
        const schema = response.content?.["application/json"]?.schema;
        return op.operationId && schema ? [[`${op.operationId} ${status}`, schema]] : [];
      }),
    ),
  );
}

/** Whether a property marked `x-api-version` is in `version` (dated versions compare as strings). */
function within(version: ApiVersion, range: NonNullable<Schema["x-api-version"]>): boolean {
  return (!range.starting_from || version >= range.starting_from) && (!range.up_to || version <= range.up_to);
}

/** An operation's answer, as the contract builds it, in the shape `version` has. */
export type Shape = (operationId: string, status: number, version: ApiVersion, body: unknown) => unknown;

/**
 * The shaping of the answers that hold a versioned property somewhere, from the contract; every
 * other answer is passed on untouched. A union is followed by its discriminator, or by its only
 * member that holds versioned properties: a union with several such members and no tag cannot
 * be shaped, and is refused here, when the server starts.
 */
export function versionedShapes(doc: Document): Shape {
  const { roots: answers, shape } = shaper(doc.components.schemas, answersOf(doc));
  return (operationId, status, version, body) => {
    const schema = answers.get(`${operationId} ${status}`);
    return schema ? shape(body, schema, version) : body;
  };
}

/**
 * A webhook event's payload (its JSON text) in `version`, from the contract's webhooks: the text
 * itself when the event type's body holds no versioned property, or the version is not served.
 */
export function versionedWebhooks(doc: Document): (type: string, version: string, payload: string) => string {
  const bodies = Object.entries(doc.webhooks ?? {}).flatMap(([type, item]): [string, Schema][] => {
    const schema = item.post?.requestBody?.content?.["application/json"]?.schema;
    return schema ? [[type, schema]] : [];
  });
  const { roots: payloads, shape } = shaper(doc.components.schemas, bodies);
  return (type, version, payload) => {
    const schema = payloads.get(type);
    return schema && served(version) ? JSON.stringify(shape(JSON.parse(payload), schema, version)) : payload;
  };
}

/** A component's name in a reference (`#/components/schemas/<Name>`, or routes.json's `contract#/…`). */
const componentOf = (ref: string | undefined) => /^(?:contract)?#\/components\/schemas\/(.+)$/.exec(ref ?? "")?.[1];

/** What shapes a value of the contract in a version: which of `roots` (answers or webhook bodies, by key) to shape, and how. */
function shaper(schemas: Record<string, Schema>, roots: [string, Schema][]) {
  const resolve = (s: Schema): Schema => {
    const name = componentOf(s.$ref);
    return name === undefined ? s : (schemas[name] ?? {});
  };
  const children = (s: Schema): Schema[] => [
    ...Object.values(s.properties ?? {}),
    ...(s.items ? [s.items] : []),
    ...(typeof s.additionalProperties === "object" ? [s.additionalProperties] : []),
    ...(s.oneOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.allOf ?? []),
  ];
  // The schemas that hold a versioned property at any depth: those with one of their own, and
  // every schema that leads to one (walked back along the contract's references, cycles included).
  const parents = new Map<Schema, Schema[]>();
  const seen = new Set<Schema>();
  const visit = (given: Schema): Schema => {
    const s = resolve(given);
    if (seen.has(s)) return s;
    seen.add(s);
    for (const child of children(s)) {
      const c = visit(child);
      parents.set(c, [...(parents.get(c) ?? []), s]);
    }
    return s;
  };
  Object.values(schemas).forEach(visit);
  const visited = roots.map(([key, schema]): [string, Schema] => [key, visit(schema)]);
  const holding = new Set([...seen].filter((s) => Object.values(s.properties ?? {}).some((p) => p["x-api-version"] !== undefined)));
  for (const s of holding) for (const parent of parents.get(s) ?? []) holding.add(parent);
  const versioned = (given: Schema): boolean => holding.has(resolve(given));

  const branchOf = (s: Schema, alts: Schema[], value: Record<string, unknown>): Schema | undefined => {
    const tagged = alts.filter(versioned);
    if (!s.discriminator) return tagged[0];
    const tag = value[s.discriminator.propertyName];
    const mapped = typeof tag === "string" ? s.discriminator.mapping?.[tag] : undefined;
    if (mapped) return resolve({ $ref: mapped });
    return tagged.find((b) => {
      const p = resolve(b).properties?.[s.discriminator?.propertyName ?? ""];
      return p !== undefined && (p.const === tag || (p.enum ?? []).includes(tag));
    });
  };

  const shape = (value: unknown, given: Schema, version: ApiVersion): unknown => {
    const s = resolve(given);
    if (value === null || typeof value !== "object" || !versioned(s)) return value;
    if (Array.isArray(value)) return s.items ? value.map((item) => shape(item, s.items ?? {}, version)) : value;
    let out = value as Record<string, unknown>;
    for (const part of s.allOf ?? []) out = shape(out, part, version) as Record<string, unknown>;
    const alts = s.oneOf ?? s.anyOf;
    const branch = alts && branchOf(s, alts, out);
    if (branch) out = shape(out, branch, version) as Record<string, unknown>;
    // Copied on the first change: the handler's objects are never written to.
    let copy: Record<string, unknown> | undefined;
    for (const [key, property] of Object.entries(s.properties ?? {})) {
      if (!Object.hasOwn(out, key)) continue;
      const range = property["x-api-version"];
      if (range && !within(version, range)) {
        copy ??= { ...out };
        delete copy[key];
        continue;
      }
      const next = shape(out[key], property, version);
      if (next !== out[key]) (copy ??= { ...out })[key] = next;
    }
    const extra = s.additionalProperties;
    if (typeof extra === "object" && versioned(extra)) {
      for (const key of Object.keys(out)) {
        if (s.properties?.[key]) continue;
        const next = shape(out[key], extra, version);
        if (next !== out[key]) (copy ??= { ...out })[key] = next;
      }
    }
    return copy ?? out;
  };

  // The roots to shape, and the contract checked once for unions no tag can tell apart.
  const shaped = new Map(visited.filter(([, schema]) => versioned(schema)));
  for (const s of holding) {
    const alts = s.oneOf ?? s.anyOf ?? [];
    if (!s.discriminator && alts.filter(versioned).length > 1) {
      throw new Error(
        `a union without a discriminator has several members with versioned properties: ${JSON.stringify(alts.map((a) => a.$ref ?? a.type))}`,
      );
    }
  }
  return { roots: shaped, shape, resolve, versioned };
}

/** An operation's answer with this status as JSON text, in the shape `version` has. */
export type Json = (status: number, version: ApiVersion, body: unknown) => string;

/**
 * The JSON text of an operation's answers. One that holds a versioned property is written by a
 * fast-json-stringify serialiser compiled from the contract (on first use) with the version's
 * properties only: those of other versions are left out, and those the contract does not declare,
 * as Polar's response models do. Every other answer is JSON.stringify's: on Node 20, V8 writes the
 * contract's string-heavy answers faster than generated code does (issue 33's figures). An answer
 * with a versioned property inside a union, which a compiled serialiser cannot tell apart, is
 * shaped, then JSON.stringify's. `strict` (tests): a compiled answer is also shaped, and must read the same.
 */
export function versionedJson(contract: ContractAnswers, strict: boolean): (operationId: string) => Json {
  const answers = contract.routes.flatMap((route) =>
    Object.entries(route.responses).map(([status, schema]): [string, Schema] => [`${route.operationId} ${status}`, schema]),
  );
  const { roots, shape, resolve, versioned } = shaper(contract.schemas, answers);
  // Whether fast-json-stringify can write a schema's versions: no union holds a versioned property.
  const compilable = (schema: Schema): boolean => {
    const seen = new Set<Schema>();
    const plain = (given: Schema): boolean => {
      const s = resolve(given);
      if (seen.has(s)) return true;
      seen.add(s);
      const member = nullOr(s);
      if (member) return plain(member);
      if (s.oneOf || s.anyOf || s.allOf) return !versioned(s);
      const extra = typeof s.additionalProperties === "object" ? [s.additionalProperties] : [];
      return [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : []), ...extra].every(plain);
    };
    return plain(schema);
  };
  const contracts = new Map<ApiVersion, ReturnType<typeof schemasForJson>>();
  const writer = (operationId: string, status: number, version: ApiVersion): ((body: unknown) => string) => {
    const schema = roots.get(`${operationId} ${status}`);
    if (!schema) return (body) => JSON.stringify(body) ?? "null";
    const shaped = (body: unknown) => JSON.stringify(shape(body, schema, version)) ?? "null";
    if (!compilable(schema)) return shaped;
    let forJson = contracts.get(version);
    if (!forJson) contracts.set(version, (forJson = schemasForJson(contract.schemas, version)));
    const { root, document } = forJson(schema);
    const compiled = fastJson(root, { schema: { contract: document } });
    return (body) => {
      let text: string;
      try {
        text = compiled(body);
      } catch (err) {
        // A value the contract's types do not describe, or a required property missing (the tests'
        // response check refuses both), is written as it is.
        if (strict) throw new ResponseContractViolation(`${operationId} ${status}: ${String(err)}`);
        return shaped(body);
      }
      const differs = strict ? difference(JSON.parse(text), JSON.parse(shaped(body)), "") : undefined;
      if (differs) throw new ResponseContractViolation(`${operationId} ${status}: the compiled serialiser ${differs}`);
      return text;
    };
  };
  return (operationId) => {
    const byStatus = new Map<number, Map<ApiVersion, (body: unknown) => string>>();
    return (status, version, body) => {
      let byVersion = byStatus.get(status);
      if (!byVersion) byStatus.set(status, (byVersion = new Map()));
      let write = byVersion.get(version);
      if (!write) byVersion.set(version, (write = writer(operationId, status, version)));
      return write(body);
    };
  };
}

/**
 * Where the compiled serialiser's JSON differs from the shaped answer's (at `at`), or undefined
 * when they are alike but for the properties the contract does not declare, which it leaves out.
 */
function difference(written: unknown, meant: unknown, at: string): string | undefined {
  if (!written || !meant || typeof written !== "object" || typeof meant !== "object" || Array.isArray(written) !== Array.isArray(meant)) {
    return written === meant ? undefined : `writes ${JSON.stringify(written)} for ${JSON.stringify(meant)} at ${at || "/"}`;
  }
  const [a, b] = [new Map(Object.entries(written)), new Map(Object.entries(meant))];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const found = a.has(key) || Array.isArray(written) ? difference(a.get(key), b.get(key), `${at}/${key}`) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A schema as fast-json-stringify reads it. */
type JsonSchema = fastJson.AnySchema & Record<string, unknown>;

/** The member of `X or null`, the contract's nullable. */
function nullOr(s: Schema): Schema | undefined {
  const alts = s.oneOf ?? s.anyOf;
  const members = alts?.filter((a) => a.type !== "null") ?? [];
  return alts?.length === 2 && members.length === 1 ? members[0] : undefined;
}

/**
 * The contract's schemas as fast-json-stringify writes them in `version`: their types, properties
 * (`version`'s only, and which are required), items and maps, and no more (a `const`, `default` or
 * `format` would make it write what the value does not hold). A union other than `X or null`, a
 * free-form object, an untyped value, and whatever holds only those, are JSON.stringify's (`{}`).
 */
function schemasForJson(schemas: Record<string, Schema>, version: ApiVersion) {
  const PREFIX = "contract#/components/schemas/";
  // The components written so far; one being written is taken for an object meanwhile.
  const written = new Map<string, JsonSchema>();
  const forJson = (s: Schema): JsonSchema => {
    const name = componentOf(s.$ref);
    if (name !== undefined) {
      if (!written.has(name)) {
        written.set(name, { type: "object" });
        written.set(name, forJson(schemas[name] ?? {}));
      }
      return any(written.get(name) ?? {}) ? {} : { $ref: PREFIX + name };
    }
    const member = nullOr(s);
    if (member) {
      const nullable = forJson(member);
      return any(nullable) ? {} : Object.assign(nullable, { nullable: true });
    }
    const types = [s.type ?? []].flat();
    if (s.oneOf || s.anyOf || s.allOf || types.length === 0) return {};
    const out: JsonSchema = { type: s.type };
    if (types.includes("array")) {
      const items = s.items ? forJson(s.items) : {};
      if (any(items)) return {};
      out.items = items;
    }
    if (types.includes("object")) {
      const extra = typeof s.additionalProperties === "object" ? forJson(s.additionalProperties) : s.additionalProperties;
      if (!s.properties && (extra === undefined || typeof extra === "boolean" || any(extra))) return {};
      if (s.properties) {
        const kept = Object.entries(s.properties).filter(([, p]) => !p["x-api-version"] || within(version, p["x-api-version"]));
        out.properties = Object.fromEntries(kept.map(([name, p]) => [name, forJson(p)]));
        out.required = (s.required ?? []).filter((name) => kept.some(([k]) => k === name));
      }
      if (extra !== undefined) out.additionalProperties = extra;
    }
    return out;
  };
  /** A schema as written, and the components it reaches (fast-json-stringify reads all it is given). */
  return (schema: Schema) => {
    const root = forJson(schema);
    const reached = new Map<string, JsonSchema>();
    const reach = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      const name = "$ref" in node && typeof node.$ref === "string" ? node.$ref.slice(PREFIX.length) : undefined;
      if (name !== undefined && !reached.has(name)) {
        reached.set(name, written.get(name) ?? {});
        reach(written.get(name));
      }
      Object.values(node).forEach(reach);
    };
    reach(root);
    return { root, document: { type: "object" as const, components: { schemas: Object.fromEntries(reached) } } };
  };
}

/** Whether a schema lets JSON.stringify write the value. */
const any = (s: JsonSchema) => Object.keys(s).length === 0;
