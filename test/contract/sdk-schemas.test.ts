/* eslint-disable @typescript-eslint/no-explicit-any -- walks the JSON contract generically */
// Response schemas of the contract vs the client's zod inbound schemas: a sample body built from each
// contract schema (only required fields / nulls, and every field with each union branch) must be
// accepted by @polar-sh/sdk's `<Name>$inboundSchema`, and by the contract's own validator.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { responseBodySchemas, schemaValidator } from "../../generated/validators.js";

const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const schemas: Record<string, any> = spec.components.schemas;
const CREF = "#/components/schemas/";

type Mode = {
  minimal: boolean;
  branch: number;
  nullsToo?: boolean;
  omitValues?: readonly unknown[];
  /** Properties sampled without their null (a value only a newer client's call makes). */
  neverNull?: readonly string[];
};
function sample(s: any, mode: Mode, depth = 0): unknown {
  if (s.$ref) return sample(schemas[s.$ref.slice(CREF.length)], mode, depth + 1);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v: unknown) => !mode.omitValues?.includes(v));
    return values[mode.branch % values.length];
  }
  const alts: any[] | undefined = s.oneOf ?? s.anyOf;
  if (alts) {
    // A branch tagged with an omitted value (a union member an old client does not know) is left out.
    const tagged = (a: any) =>
      Object.values<any>((a.$ref ? schemas[a.$ref.slice(CREF.length)] : a).properties ?? {}).some((p) =>
        mode.omitValues?.includes(p.const),
      );
    const nonNull = alts.filter((a) => a.type !== "null" && !tagged(a));
    if (alts.some((a) => a.type === "null") && (mode.minimal || depth > 6)) return null;
    return sample(nonNull[mode.branch % nonNull.length], mode, depth + 1);
  }
  let type = s.type;
  if (Array.isArray(type)) {
    if (type.includes("null") && (mode.minimal || depth > 6)) return null;
    type = type.filter((t: string) => t !== "null")[mode.branch % (type.length - (type.includes("null") ? 1 : 0))];
  }
  switch (type) {
    case "string":
      if (s.format === "date-time") return "2025-01-01T00:00:00Z";
      if (s.format === "date") return "2025-01-01";
      if (s.format === "uuid") return "5f0f4c1e-8a4b-4c2d-9e1f-3a2b1c0d9e8f";
      if (s.pattern === "^[a-zA-Z]{3}$") return "usd";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
    case "integer":
      return Math.max(1, s.minimum ?? 1);
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array":
      return (mode.minimal || depth > 6) && !s.minItems ? [] : [sample(s.items ?? {}, mode, depth + 1)];
    case "object":
    case undefined: {
      if (!s.properties && !s.additionalProperties && type === undefined) return "x";
      const o: Record<string, unknown> = {};
      for (const [k, ps] of Object.entries<any>(s.properties ?? {})) {
        const nullable = (Array.isArray(ps.type) && ps.type.includes("null")) || (ps.anyOf ?? []).some((a: any) => a.type === "null");
        // A schema narrowed by a query parameter (`x-narrowed-by`) is whole when the client does not send it.
        if (mode.minimal && !(s.required ?? []).includes(k) && !(mode.nullsToo && nullable) && !s["x-narrowed-by"]) continue;
        o[k] = sample(ps, nullable && mode.neverNull?.includes(k) ? Object.assign({}, mode, { minimal: false }) : mode, depth + 1);
      }
      if (!mode.minimal && s.additionalProperties && typeof s.additionalProperties === "object" && depth <= 6) {
        o.extra_key = sample(s.additionalProperties, mode, depth + 1);
      }
      // An object that is also each of its allOf parts (a payment method saved, with the method's own fields beside).
      for (const part of s.allOf ?? []) Object.assign(o, sample(part, mode, depth + 1));
      return o;
    }
    default:
      return null;
  }
}

// Each client's inbound and outbound schemas by name (its components).
const require = createRequire(import.meta.url);
type Zod = { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown }; parse(v: unknown): unknown };
async function schemasOf(pkg: string): Promise<{ inbound: Record<string, Zod>; outbound: Record<string, Zod> }> {
  const dir = join(dirname(require.resolve(`${pkg}/package.json`)), "src", "models", "components");
  const inbound: Record<string, Zod> = {};
  const outbound: Record<string, Zod> = {};
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const mod: Record<string, Zod> = await import(`${pkg}/models/components/${f.replace(/\.ts$/, ".js")}`);
    for (const [k, v] of Object.entries(mod)) {
      if (k.endsWith("$inboundSchema")) inbound[k.slice(0, -14)] = v;
      if (k.endsWith("$outboundSchema")) outbound[k.slice(0, -15)] = v;
    }
  }
  return { inbound, outbound };
}

/**
 * A draft order (0.49.0's orders.create) is `draft` with no invoice number, which the clients before
 * it cannot read, as with Polar: a merchant who drafts orders reads them with 0.49.0 or later
 * (docs/CONTRACT.md). Every other answer is read by all.
 */
const DRAFT_ONLY = { omitValues: ["draft"], neverNull: ["invoice_number"] };

/**
 * A seat-based price (0.47.1 and later know `seat_based`) is read by the newer clients only, as
 * with Polar: a merchant who sells seats reads its products with 0.47.1 or later (docs/CONTRACT.md).
 */
const SEATS_TOO = { omitValues: ["draft", "seat_based"], neverNull: ["invoice_number"] };

/** The seeds' client, and the newest 0.x (the one Polar's adapters require). */
const CLIENTS = [
  { pkg: "@polar-sh/sdk", version: "0.34.17", ...SEATS_TOO },
  { pkg: "polar-sdk-047", version: "0.47.1", ...DRAFT_ONLY },
  { pkg: "polar-sdk-049", version: "0.49.0", omitValues: [] as string[], neverNull: [] as string[] },
];
const { inbound: sdk, outbound: sdkOut } = await schemasOf("@polar-sh/sdk");

/** Our names of response schemas a client names otherwise (0.49.0's names are ours). */
const CLIENT_NAMES: Record<string, Record<string, string>> = {
  "0.34.17": { CustomerOrganizationData: "CustomerOrganization" },
  "0.47.1": {},
  "0.49.0": {},
};

// Webhook bodies, through each client's payload schemas (validateEvent parses with them): the
// clients above, and 0.32.16, which @polar-sh/express 0.3.0's Webhooks() verifies with.
const webhookPayloads = Object.keys(schemas).filter((n) => /^Webhook.+Payload$/.test(n));
// 0.32.16 knows monthly and yearly billing only, and no meter counting unique values: a product
// billed daily or weekly, or such a meter, reaches an @polar-sh/express 0.3.0 receiver as a body
// its old client refuses (docs/CONTRACT.md).
const WEBHOOK_CLIENTS = [
  ...CLIENTS,
  { pkg: "polar-sdk-032", version: "0.32.16", omitValues: ["day", "week", "unique", "draft", "seat_based"], neverNull: ["invoice_number"] },
];
for (const client of WEBHOOK_CLIENTS) {
  const { inbound } = await schemasOf(client.pkg);
  describe(`webhook bodies are accepted by ${client.version}'s zod schemas`, () => {
    // The 27 event types of 0.34.17; the newer clients know member.* and customer_seat.* as well.
    const known = client.version === "0.34.17" || client.version === "0.32.16" ? 27 : 33;
    it(`covers the ${known} event types it knows`, () => {
      expect(webhookPayloads.filter((n) => inbound[n])).toHaveLength(known);
    });
    for (const name of webhookPayloads.filter((n) => inbound[n])) {
      it(name, () => {
        const modes: Mode[] = [{ minimal: true, branch: 0 }, ...[0, 1, 2, 3, 4, 5].map((b) => ({ minimal: false, branch: b }))];
        for (const mode of modes) {
          const body = sample(schemas[name], Object.assign({}, mode, { omitValues: client.omitValues, neverNull: client.neverNull }));
          const r = inbound[name].safeParse(body);
          expect(r.success, `${name} ${JSON.stringify(mode)} sdk: ${JSON.stringify(r.error)}\n${JSON.stringify(body)}`).toBe(true);
        }
      });
    }
  });
}

for (const client of CLIENTS) {
  const { inbound: own } = client.pkg === "@polar-sh/sdk" ? { inbound: sdk } : await schemasOf(client.pkg);
  const renamed = CLIENT_NAMES[client.version];
  const inbound: Record<string, Zod> = Object.fromEntries(
    (responseBodySchemas as readonly string[]).filter((n) => own[renamed[n] ?? n]).map((n) => [n, own[renamed[n] ?? n]]),
  );
  const bodies = Object.keys(inbound);
  describe(`response schemas are accepted by ${client.version}'s zod schemas`, () => {
    it("covers the response bodies", () => {
      expect(bodies.length).toBeGreaterThan(60);
    });
    for (const name of bodies) {
      it(name, () => {
        const validate = schemaValidator(name);
        const modes: Mode[] = [{ minimal: true, branch: 0 }, ...[0, 1, 2, 3, 4, 5].map((b) => ({ minimal: false, branch: b }))];
        for (const mode of modes) {
          const body = sample(schemas[name], Object.assign({}, mode, { omitValues: client.omitValues, neverNull: client.neverNull }));
          expect(validate(body), `${name} ${JSON.stringify(mode)} contract: ${JSON.stringify(validate.errors)}`).toBe(true);
          const r = inbound[name].safeParse(body);
          expect(r.success, `${name} ${JSON.stringify(mode)} sdk: ${JSON.stringify(r.error)}\n${JSON.stringify(body)}`).toBe(true);
        }
      });
    }
  });
}

// A payment method the portal saved, as 0.34.17 reads it: the bare method (0.49.0 reads it under payment_method).
describe("a saved payment method's answer is 0.34.17's payment method", () => {
  it("CustomerPaymentMethodCreateSucceededResponse", () => {
    for (const mode of [{ minimal: true, branch: 0 }, ...[0, 1, 2, 3].map((b) => ({ minimal: false, branch: b }))]) {
      const body = sample(schemas.CustomerPaymentMethodCreateSucceededResponse, mode);
      const r = sdk.CustomerPaymentMethod.safeParse(body);
      expect(r.success, `${JSON.stringify(mode)} sdk: ${JSON.stringify(r.error)}\n${JSON.stringify(body)}`).toBe(true);
    }
  });
});

// Request bodies: what the client sends (its outbound encoding of a value) must pass the contract.
const requestBodies = new Set<string>();
for (const item of Object.values<any>(spec.paths)) {
  for (const op of Object.values<any>(item)) {
    for (const media of Object.values<any>(op.requestBody?.content ?? {})) {
      const ref: string | undefined = media.schema?.$ref;
      if (ref?.startsWith(CREF)) requestBodies.add(ref.slice(CREF.length));
    }
  }
}
const bodyNames = [...requestBodies].filter((n) => sdk[n] && sdkOut[n]).sort();

/**
 * A minimal body as the client holds one: the contract's required fields, and those the client
 * requires though the contract does not (it accepts more: an OAuth2 client's credentials may come
 * in a Basic header instead), from the full sample.
 */
function clientMinimal(name: string, minimal: any, full: any): unknown {
  const shape = ((sdk[name] as any)._def?.schema ?? sdk[name]).shape;
  if (!shape || !minimal || typeof minimal !== "object") return minimal;
  const out = { ...minimal };
  for (const [key, field] of Object.entries<any>(shape)) if (!(key in out) && !field.isOptional() && key in full) out[key] = full[key];
  return out;
}

/** A value of a zod issue's expected type, for a field the client types otherwise than the sample. */
const OF_TYPE: Record<string, () => unknown> = {
  string: () => "x",
  number: () => 1,
  int: () => 1,
  boolean: () => true,
  object: () => ({}),
  array: () => [],
  record: () => ({}),
  date: () => new Date("2025-01-01T00:00:00Z"),
};

/** Sets the field at `path` of `value`, making the objects and arrays on the way. */
function setAt(value: any, path: (string | number)[], v: unknown): void {
  let at = value;
  for (const key of path.slice(0, -1)) at = at[key] ??= typeof key === "number" ? [] : {};
  at[path[path.length - 1]] = v;
}

/**
 * Each request body `names` lists, in every mode (minimal: required fields plus nullable ones as
 * null, as request-only schemas let nullable fields be omitted and clients send them): what the
 * client sends for the contract's sample (`sent`) must pass the contract.
 */
function describeBodies(title: string, names: string[], sent: (name: string, mode: Mode) => unknown): void {
  describe(title, () => {
    it("covers the request bodies", () => {
      expect(names.length).toBeGreaterThan(40);
    });
    for (const name of names) {
      it(name, () => {
        const validate = schemaValidator(name);
        const modes: Mode[] = [
          { minimal: true, branch: 0, nullsToo: true },
          ...[0, 1, 2, 3, 4, 5].map((b) => ({ minimal: false, branch: b })),
        ];
        for (const mode of modes) {
          const body = JSON.parse(JSON.stringify(sent(name, mode)));
          expect(
            validate(body),
            `${name} ${JSON.stringify(mode)} contract: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body)}`,
          ).toBe(true);
        }
      });
    }
  });
}

/**
 * 0.34.17's counterpart of `repair` below (zod 3 issues, on the wire sample): where the contract
 * takes more than the client holds (a tax id as a bare string, a discount's `amounts` alone), the
 * sample is made one the client holds.
 */
function repairV3(value: any, issues: any[]): boolean {
  let changed = false;
  for (const issue of issues) {
    if (issue.code === "invalid_union" && issue.unionErrors?.length) {
      const fewest = issue.unionErrors.reduce((a: any, b: any) => (b.issues.length < a.issues.length ? b : a));
      changed = repairV3(value, fewest.issues) || changed;
      continue;
    }
    const make =
      issue.code === "invalid_enum_value"
        ? () => issue.options[0]
        : issue.code === "invalid_literal"
          ? () => issue.expected
          : issue.code === "invalid_type"
            ? OF_TYPE[issue.expected]
            : undefined;
    if (!make || issue.path.length === 0) continue;
    setAt(value, issue.path, make());
    changed = true;
  }
  return changed;
}

describeBodies("request bodies the client encodes pass the contract", bodyNames, (name, mode) => {
  const wire = mode.minimal
    ? clientMinimal(name, sample(schemas[name], mode), sample(schemas[name], { minimal: false, branch: 0 }))
    : sample(schemas[name], mode);
  let parsed = sdk[name].safeParse(wire);
  for (let i = 0; i < 5 && !parsed.success && repairV3(wire, (parsed.error as any).issues); i++) parsed = sdk[name].safeParse(wire);
  expect(parsed.success, `${name} ${JSON.stringify(mode)} sdk inbound: ${JSON.stringify(parsed.error)}`).toBe(true);
  return sdkOut[name].parse(parsed.data);
});

// Request bodies 0.49.0 sends: it has only outbound schemas for them (no inbound), so the value it
// is given is built from the contract's sample as its caller holds one (camelCase keys, Dates for
// date-times), encoded with its `$outboundSchema`, and what it sends must pass the contract.
const { outbound: out049 } = await schemasOf("polar-sdk-049");
const bodyNames049 = [...requestBodies].filter((n) => out049[n]).sort();
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The branches of a schema (itself when it has none), references resolved. */
function branchesOf(s: any): any[] {
  if (s.$ref) return branchesOf(schemas[s.$ref.slice(CREF.length)]);
  const alts: any[] | undefined = s.oneOf ?? s.anyOf;
  return alts ? alts.flatMap(branchesOf) : [s];
}

/** `wire` (a sample of schema `s`) as the client's caller holds it. */
function clientValue(s: any, wire: unknown): unknown {
  const branches = branchesOf(s);
  if (typeof wire === "string") return DATE_TIME.test(wire) && branches.some((b) => b.format === "date-time") ? new Date(wire) : wire;
  if (Array.isArray(wire)) {
    const items = branches.find((b) => b.type === "array" || (Array.isArray(b.type) && b.type.includes("array")))?.items ?? {};
    return wire.map((w) => clientValue(items, w));
  }
  if (wire === null || typeof wire !== "object") return wire;
  // The object branch whose properties name the sample's keys; a free-form map keeps its keys.
  const keys = Object.keys(wire);
  const objects = branches.filter((b) => b.properties || b.additionalProperties);
  const branch = objects.find((b) => keys.every((k) => k in (b.properties ?? {}) || b.additionalProperties)) ?? objects[0] ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(wire)) {
    const prop = branch.properties?.[k];
    if (prop) out[camel(k)] = clientValue(prop, v);
    else out[k] = clientValue(typeof branch.additionalProperties === "object" ? branch.additionalProperties : {}, v);
  }
  return out;
}

/** The first value the contract's schema `s` enumerates at `path` (client-side camelCase keys), if any. */
function enumAt(s: any, path: (string | number)[]): string | undefined {
  let at: any[] = branchesOf(s);
  for (const key of path) {
    at = at.flatMap((b) => {
      if (typeof key === "number") return b.items ? branchesOf(b.items) : [];
      const prop = Object.entries<any>(b.properties ?? {}).find(([k]) => camel(k) === key)?.[1];
      return prop ? branchesOf(prop) : [];
    });
  }
  return at.find((b) => Array.isArray(b.enum))?.enum[0];
}

/**
 * Makes `value` one the client can hold where its types are narrower than the contract's sample
 * (a closed enum, a field it requires, another type): each issue of its outbound schema's parse
 * sets that field to the first value the client allows, or a value of the type it expects (of a
 * union, the branch with the fewest issues). Returns whether anything changed.
 */
function repair(root: any, value: any, issues: any[], prefix: (string | number)[] = []): boolean {
  let changed = false;
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path ?? [])];
    if (issue.code === "invalid_union" && issue.errors?.length) {
      changed =
        repair(
          root,
          value,
          issue.errors.reduce((a: any[], b: any[]) => (b.length < a.length ? b : a)),
          path,
        ) || changed;
      continue;
    }
    // A string the contract enumerates (the client's open enum takes any): the contract's first value.
    const listed = issue.code === "invalid_type" && issue.expected === "string" ? enumAt(root, path) : undefined;
    const make = listed
      ? () => listed
      : issue.code === "invalid_value" && issue.values?.length
        ? () => issue.values[0]
        : issue.code === "invalid_type"
          ? OF_TYPE[issue.expected]
          : undefined;
    if (!make || path.length === 0) continue;
    setAt(value, path, make());
    changed = true;
  }
  return changed;
}

describeBodies("request bodies 0.49.0 encodes pass the contract", bodyNames049, (name, mode) => {
  const value = clientValue(schemas[name], sample(schemas[name], mode));
  let encoded = out049[name].safeParse(value);
  for (let i = 0; i < 5 && !encoded.success && repair(schemas[name], value, JSON.parse((encoded.error as any).message)); i++)
    encoded = out049[name].safeParse(value);
  expect(encoded.success, `${name} ${JSON.stringify(mode)} 0.49.0 outbound: ${JSON.stringify(encoded.error)}`).toBe(true);
  return encoded.data;
});
