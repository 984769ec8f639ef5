// generated/handlers.ts: the typed handler map the server is written against.
import { HEADER, operationsOf, q, type OpenApiDoc } from "./model.js";

export function emitHandlers(doc: OpenApiDoc): string {
  const ops = operationsOf(doc);
  const out: string[] = [HEADER];
  out.push('import type { operations as Ops } from "./types.js";', "");
  out.push("export type OperationId =");
  for (const op of ops) out.push(`  | ${q(op.id)}`);
  out.push(";", "");
  out.push("/** Request and success-response types of each operation (snake_case wire shapes from types.ts). */");
  out.push("export interface OperationTypes {");
  for (const op of ops) {
    const o = `Ops[${q(op.id)}]`;
    const params = op.pathParams.length ? `${o}["parameters"]["path"]` : "{}";
    const query = op.queryParams.length ? `NonNullable<${o}["parameters"]["query"]>` : "{}";
    let body = "undefined";
    if (op.requestContentType) {
      const t = `NonNullable<${o}["requestBody"]>["content"][${q(op.requestContentType)}]`;
      body = op.requestRequired ? t : `${t} | undefined`;
    }
    let result: string;
    if (op.successContentType === null) result = "null";
    else result = `${o}["responses"][${op.successStatus}]["content"][${q(op.successContentType)}]`;
    out.push(`  ${q(op.id)}: {`);
    out.push(`    params: ${params};`);
    out.push(`    query: ${query};`);
    out.push(`    body: ${body};`);
    out.push(`    status: ${op.successStatuses.join(" | ")};`);
    out.push(`    result: ${result};`);
    out.push("  };");
  }
  out.push("}", "");
  out.push(
    'export type OpParams<K extends OperationId> = OperationTypes[K]["params"];',
    'export type OpQuery<K extends OperationId> = OperationTypes[K]["query"];',
    'export type OpBody<K extends OperationId> = OperationTypes[K]["body"];',
    "/** The success response: status literal + body type (null for 204). */",
    'export type OpResult<K extends OperationId> = { status: OperationTypes[K]["status"]; body: OperationTypes[K]["result"] };',
    "export interface OpRequest<K extends OperationId> {",
    "  params: OpParams<K>;",
    "  query: OpQuery<K>;",
    "  body: OpBody<K>;",
    "}",
    "export type Handler<K extends OperationId, Ctx> = (req: OpRequest<K>, ctx: Ctx) => Promise<OpResult<K>>;",
    "export type HandlerMap<Ctx> = { [K in OperationId]: Handler<K, Ctx> };",
    "",
  );
  return out.join("\n");
}
