// generated/operations.ts: per-operation routing/auth metadata as plain data.
import { HEADER, operationsOf, q, type OpenApiDoc } from "./model.js";

export function emitOperations(doc: OpenApiDoc): string {
  const lines: string[] = [HEADER, "", "export const operations = {"];
  for (const op of operationsOf(doc)) {
    lines.push(
      `  ${q(op.id)}: { method: ${q(op.method)}, path: ${q(op.path)}, expressPath: ${q(op.expressPath)}, tag: ${q(op.tag)}, ` +
        `security: ${q(op.security)}, scopes: [${op.scopes.map(q).join(", ")}], successStatus: ${op.successStatus}, ` +
        `successContentType: ${op.successContentType ? q(op.successContentType) : "null"} },`,
    );
  }
  lines.push("} as const;", "", "export type OperationId = keyof typeof operations;", "");
  lines.push('export type SecurityKind = (typeof operations)[OperationId]["security"];', "");
  return lines.join("\n");
}
