// The test harness's contract check has teeth: a handler answering a body (success or error) that
// breaks the contract turns into a 500 ResponseContractViolation, so the official client call of
// any test that meets it fails. products:get is swapped for a handler that misbehaves for a few
// fixed ids and behaves for every other one; a second API without the check shows the same bodies
// would otherwise reach the client as if they were fine.
import { invalid } from "../harness/index.js";
import { Polar } from "@polar-sh/sdk";
import { SDKValidationError } from "@polar-sh/sdk/models/errors/sdkvalidationerror.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiHandle, createProductWithPrice, orgWithToken, useTestApi } from "../harness/index.js";

const BAD = {
  body: "00000000-0000-4000-8000-0000000000b1",
  errorBody: "00000000-0000-4000-8000-0000000000b2",
  validationBody: "00000000-0000-4000-8000-0000000000b3",
  plainError: "00000000-0000-4000-8000-0000000000b4",
  databaseInput: "00000000-0000-4000-8000-0000000000b5",
};

vi.mock("../../server/handlers.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../server/handlers.js")>();
  const { ApiError } = await import("../../server/kit/errors.js");
  class BrokenError extends ApiError {
    constructor(
      status: number,
      private readonly broken: unknown,
    ) {
      super(status, "Broken", "a body that breaks the contract");
    }
    override body() {
      return this.broken;
    }
  }
  type GetProduct = (typeof original.handlers)["products:get"];
  const realGet: GetProduct = original.handlers["products:get"];
  const get: GetProduct = async (input, ctx) => {
    switch (input.params.id) {
      case BAD.body: // a product without its required fields
        return { status: 200, body: invalid({ id: BAD.body, name: 42 }) };
      case BAD.errorBody: // a typed 404 whose body lacks the required detail
        throw new BrokenError(404, { error: "ResourceNotFound" });
      case BAD.validationBody: // a 422 whose issue has no loc
        throw new BrokenError(422, { detail: [{ msg: "bad", type: "value_error" }] });
      case BAD.plainError: // a library's 4xx error, named by its HTTP status, not by the contract's name for a 404
        throw Object.assign(new Error("gone"), { status: 404 });
      case BAD.databaseInput: // PostgreSQL refusing the input: a documented 422
        throw Object.assign(new Error("invalid input syntax"), { code: "22P02" });
      default:
        return realGet(input, ctx);
    }
  };
  return { ...original, handlers: { ...original.handlers, "products:get": get } };
});

const api = useTestApi();
let unchecked: ApiHandle;
let token: string;
let productId: string;

beforeAll(async () => {
  unchecked = await api.startAnother({ validateResponses: false });
  const { org, token: t } = await orgWithToken(api.knex);
  token = t;
  productId = (await createProductWithPrice(api.knex, org.id)).product.id;
});

async function rawGet(base: string, id: string) {
  const res = await fetch(`${base}/v1/products/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("response validation in tests", () => {
  it("lets a contract-abiding answer through", async () => {
    const product = await api.client(token).products.get({ id: productId });
    expect(product.id).toBe(productId);
  });

  it("fails the official client call when a success body breaks the contract", async () => {
    await expect(api.client(token).products.get({ id: BAD.body })).rejects.toThrow();
    const checked = await rawGet(api.url, BAD.body);
    expect(checked.status).toBe(500);
    expect(checked.body.error).toBe("ResponseContractViolation");
    // Without the check the same body goes out as a 200, and only the client's own parsing notices.
    expect(await rawGet(unchecked.url, BAD.body)).toEqual({ status: 200, body: { id: BAD.body, name: 42 } });
    const direct = new Polar({ accessToken: token, serverURL: unchecked.url });
    await expect(direct.products.get({ id: BAD.body })).rejects.toBeInstanceOf(SDKValidationError);
  });

  it.each([
    ["a typed error body without its detail", BAD.errorBody, 404, { error: "ResourceNotFound" }],
    ["a 422 issue without loc", BAD.validationBody, 422, { detail: [{ msg: "bad", type: "value_error" }] }],
    ["an untyped 4xx error body", BAD.plainError, 404, { error: "NotFound", detail: "gone" }],
  ])("turns %s into a 500 ResponseContractViolation", async (_what, id, status, body) => {
    await expect(api.client(token).products.get({ id })).rejects.toThrow();
    const checked = await rawGet(api.url, id);
    expect(checked.status).toBe(500);
    expect(checked.body.error).toBe("ResponseContractViolation");
    expect(await rawGet(unchecked.url, id)).toEqual({ status, body });
  });

  it("checks the database-input 422 path too, and it abides by the contract", async () => {
    const checked = await rawGet(api.url, BAD.databaseInput);
    expect(checked).toEqual({ status: 422, body: { detail: [{ loc: ["body"], msg: "Invalid value", type: "value_error" }] } });
  });
});
