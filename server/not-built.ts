// The operations of the contract that have no handler yet. They answer 501 NotImplemented;
// every other operation must have a handler in server/handlers.ts (a missing one is a type error).
// Remove an id from this list when its handler lands.
import type { OperationId } from "../generated/handlers.js";

export const notBuilt = [
  "oauth2:authorize",
  "oauth2:introspect_token",
  "oauth2:request_token",
  "oauth2:revoke_token",
  "oauth2:userinfo",
] as const satisfies readonly OperationId[];

export type NotBuiltOperationId = (typeof notBuilt)[number];
