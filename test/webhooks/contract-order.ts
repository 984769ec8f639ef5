/* eslint-disable @typescript-eslint/no-explicit-any -- walks the JSON contract generically */
// Where a webhook body's key order departs from the contract's (each object's keys the schema names
// must come in the schema's property order, as Polar's pydantic models emit them): a list of paths,
// empty when the body is in order.
import { readFileSync } from "node:fs";

const contract = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const deref = (s: any): any => (s?.$ref ? deref(contract.components.schemas[s.$ref.split("/").pop()]) : (s ?? {}));

function check(value: any, schema: any, path: string, out: string[]): void {
  const s = deref(schema);
  const alts: any[] | undefined = s.oneOf ?? s.anyOf;
  if (alts) {
    // The branch that names every key of the value (unions of objects here differ in their keys or tag).
    const keys = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    const fit = alts.map(deref).filter((a) => (keys.length ? a.properties && keys.every((k) => k in a.properties) : !a.properties));
    if (fit.length) check(value, fit.find((a) => !a.discriminator) ?? fit[0], path, out);
    return;
  }
  if (Array.isArray(value)) return value.forEach((v, i) => check(v, s.items, `${path}[${i}]`, out));
  if (!value || typeof value !== "object") return;
  const props = s.properties ?? {};
  const named = Object.keys(value).filter((k) => k in props);
  const expected = Object.keys(props).filter((k) => k in value);
  if (named.join() !== expected.join()) out.push(`${path || "."}: ${named.join(",")} (contract: ${expected.join(",")})`);
  for (const [k, v] of Object.entries(value)) check(v, k in props ? props[k] : s.additionalProperties, `${path}.${k}`, out);
}

export function contractOrderProblems(type: string, body: unknown): string[] {
  const out: string[] = [];
  check(body, contract.webhooks[type].post.requestBody.content["application/json"].schema, "", out);
  return out;
}
