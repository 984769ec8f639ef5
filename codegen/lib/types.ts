// generated/types.ts: openapi-typescript output (paths, webhooks, components, operations).
import openapiTS, { astToString } from "openapi-typescript";
import { HEADER, type OpenApiDoc } from "./model.js";

export async function emitTypes(doc: OpenApiDoc): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: false });
  return HEADER + "/* eslint-disable */\n" + astToString(ast);
}
