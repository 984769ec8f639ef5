// The answers' JSON text (server/kit/api-versions.ts's versionedJson): a versioned answer by a
// serialiser compiled from the contract, any other by JSON.stringify; the same values either way.
import { describe, expect, it } from "vitest";
import { versionedJson } from "../../server/kit/api-versions.js";
import { ResponseContractViolation } from "../../server/kit/errors.js";

const NEW = { "x-api-version": { starting_from: "2026-10" } };
const OLD = { "x-api-version": { up_to: "2026-04" } };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** An operation's answer as generated/routes.json holds it: its references by the contract's id. */
const answers = (operationId: string, schema: object) => ({
  operationId,
  responses: { "200": JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"contract#/')) },
});
const doc = {
  schemas: {
    Key: {
      type: "object",
      required: ["id", "legacy"],
      properties: {
        id: { type: "string" },
        member: { type: ["string", "null"], ...NEW },
        legacy: { type: "string", ...OLD },
        count: { type: "integer", default: 0 },
        kind: { const: "key" },
        price: { anyOf: [ref("Fixed"), ref("Custom")] },
        metadata: { type: "object", additionalProperties: { anyOf: [{ type: "string" }, { type: "integer" }] } },
        parent: { anyOf: [ref("Key"), { type: "null" }] },
      },
    },
    Fixed: { type: "object", properties: { amount: { type: "integer" } } },
    Custom: { type: "object", properties: { minimum: { type: "integer" } } },
    Cat: { type: "object", properties: { kind: { const: "cat" }, key: ref("Key") } },
    Dog: { type: "object", properties: { kind: { const: "dog" }, collar: { type: "string", ...NEW } } },
    Pet: { oneOf: [ref("Cat"), ref("Dog")], discriminator: { propertyName: "kind" } },
    Plain: { type: "object", properties: { id: { type: "string" } } },
  },
  routes: [
    answers("keys", { type: "array", items: ref("Key") }),
    answers("pets", { type: "array", items: ref("Pet") }),
    answers("plain", ref("Plain")),
  ],
};
const key = {
  id: "k",
  member: null,
  legacy: "x",
  secret: "not in the contract",
  price: { amount: 5, note: "a union's value is written whole" },
  metadata: { tier: "pro", seats: 3 },
  parent: { id: "p", legacy: "y", member: "m", secret: "s", parent: null },
};

describe("versionedJson", () => {
  const json = versionedJson(doc, false);

  it("writes a versioned answer with the version's properties only, and none the contract does not declare", () => {
    const { secret: _secret, ...declared } = key;
    const parent = { id: "p", parent: null };
    expect(JSON.parse(json("keys")(200, "2026-04", [key]))).toEqual([
      { ...declared, member: undefined, parent: { ...parent, legacy: "y" } },
    ]);
    expect(JSON.parse(json("keys")(200, "2026-10", [key]))).toEqual([
      { ...declared, legacy: undefined, parent: { ...parent, member: "m" } },
    ]);
  });

  it("writes no default, const or required property the value does not hold", () => {
    expect(JSON.parse(json("keys")(200, "2026-04", [{ legacy: "x" }]))).toEqual([{ legacy: "x" }]);
    expect(JSON.parse(json("keys")(200, "2026-10", [{ id: "k" }]))).toEqual([{ id: "k" }]);
  });

  it("writes an answer without versioned properties as JSON.stringify does", () => {
    const body = { id: "p", extra: { a: [1, "two"] } };
    expect(json("plain")(200, "2026-04", body)).toBe(JSON.stringify(body));
    expect(json("keys")(404, "2026-04", body)).toBe(JSON.stringify(body));
  });

  it("shapes an answer whose union holds versioned properties", () => {
    const pets = [
      { kind: "cat", key: { id: "k", member: null, legacy: "x" } },
      { kind: "dog", collar: "red", name: "Rex" },
    ];
    expect(JSON.parse(json("pets")(200, "2026-04", pets))).toEqual([
      { kind: "cat", key: { id: "k", legacy: "x" } },
      { kind: "dog", name: "Rex" },
    ]);
  });

  it("writes a value the contract's types do not describe as it is, and in tests refuses it", () => {
    const odd = [{ id: "k", member: 5 }];
    expect(JSON.parse(json("keys")(200, "2026-10", odd))).toEqual(odd);
    const strict = versionedJson(doc, true)("keys");
    expect(() => strict(200, "2026-10", odd)).toThrow(ResponseContractViolation);
    expect(() => strict(200, "2026-10", [{ id: "k", count: "5" }])).toThrow(/writes 5 for "5" at \/0\/count/);
    expect(JSON.parse(strict(200, "2026-10", [key]))[0].secret).toBeUndefined();
  });
});
