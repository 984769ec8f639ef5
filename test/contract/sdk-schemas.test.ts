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

type Mode = { minimal: boolean; branch: number; nullsToo?: boolean };
function sample(s: any, mode: Mode, depth = 0): unknown {
  if (s.$ref) return sample(schemas[s.$ref.slice(CREF.length)], mode, depth + 1);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[mode.branch % s.enum.length];
  const alts: any[] | undefined = s.oneOf ?? s.anyOf;
  if (alts) {
    const nonNull = alts.filter((a) => a.type !== "null");
    if (nonNull.length < alts.length && (mode.minimal || depth > 6)) return null;
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
        if (mode.minimal && !(s.required ?? []).includes(k) && !(mode.nullsToo && nullable)) continue;
        o[k] = sample(ps, mode, depth + 1);
      }
      if (!mode.minimal && s.additionalProperties && typeof s.additionalProperties === "object" && depth <= 6) {
        o.extra_key = sample(s.additionalProperties, mode, depth + 1);
      }
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
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
    const mod: Record<string, Zod> = await import(`${pkg}/models/components/${f.replace(/\.ts$/, ".js")}`);
    for (const [k, v] of Object.entries(mod)) {
      if (k.endsWith("$inboundSchema")) inbound[k.slice(0, -14)] = v;
      if (k.endsWith("$outboundSchema")) outbound[k.slice(0, -15)] = v;
    }
  }
  return { inbound, outbound };
}

/** The seeds' client, and the newest 0.x (the one Polar's adapters require). */
const CLIENTS = [
  { pkg: "@polar-sh/sdk", version: "0.34.17" },
  { pkg: "polar-sdk-049", version: "0.49.0" },
];
const { inbound: sdk, outbound: sdkOut } = await schemasOf("@polar-sh/sdk");

/** Our names of response schemas a client names otherwise (0.49.0's names are ours). */
const CLIENT_NAMES: Record<string, Record<string, string>> = {
  "0.34.17": { CustomerOrganizationData: "CustomerOrganization" },
  "0.49.0": {},
};

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
          const body = sample(schemas[name], mode);
          expect(validate(body), `${name} ${JSON.stringify(mode)} contract: ${JSON.stringify(validate.errors)}`).toBe(true);
          const r = inbound[name].safeParse(body);
          expect(r.success, `${name} ${JSON.stringify(mode)} sdk: ${JSON.stringify(r.error)}\n${JSON.stringify(body)}`).toBe(true);
        }
      });
    }
  });
}

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

describe("request bodies the client encodes pass the contract", () => {
  it("covers the request bodies", () => {
    expect(bodyNames.length).toBeGreaterThan(40);
  });
  for (const name of bodyNames) {
    it(name, () => {
      const validate = schemaValidator(name);
      // minimal: required fields plus nullable ones as null (request-only schemas let nullable fields be omitted; the client always sends them)
      const modes: Mode[] = [{ minimal: true, branch: 0, nullsToo: true }, ...[0, 1, 2, 3, 4, 5].map((b) => ({ minimal: false, branch: b }))];
      for (const mode of modes) {
        const wire = mode.minimal ? clientMinimal(name, sample(schemas[name], mode), sample(schemas[name], { minimal: false, branch: 0 })) : sample(schemas[name], mode);
        const parsed = sdk[name].safeParse(wire);
        expect(parsed.success, `${name} ${JSON.stringify(mode)} sdk inbound: ${JSON.stringify(parsed.error)}`).toBe(true);
        const sent = JSON.parse(JSON.stringify(sdkOut[name].parse(parsed.data)));
        expect(validate(sent), `${name} ${JSON.stringify(mode)} contract: ${JSON.stringify(validate.errors)}\n${JSON.stringify(sent)}`).toBe(true);
      }
    });
  }
});
