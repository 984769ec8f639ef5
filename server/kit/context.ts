// What every handler receives besides its validated input: its unit of work (the database), the
// caller, a logger bound to the request id, the request's headers, the API version it speaks,
// better-auth, and what the operation needs of the request's Idempotency-Key.
import type { IncomingHttpHeaders } from "node:http";
import type { Knex } from "knex";
import type { Handler, OperationId } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import type { Caller, CustomerCaller, OrganizationCaller } from "./auth.js";
import { Unauthorized } from "./errors.js";
import type { IdempotencyContext } from "./idempotency.js";
import type { Logger } from "./logger.js";
import type { UnitOfWork } from "./unit-of-work.js";

/**
 * What a handler may ask of better-auth: its web handler, to which the OAuth2 endpoints hand a
 * request (server/oauth2/forward.ts). server/auth/instance.ts's BorealisAuth is one; kit declares
 * the shape so it imports no domain.
 */
export interface AuthHandler {
  handler(request: Request): Promise<Response>;
}

/** A domain's handlers for its operations `K`: the generated signature of each, over this context. */
export type Handlers<K extends OperationId> = { [P in K]: Handler<P, Ctx> };

export interface Ctx {
  /** What the handler reads and writes with: its unit of work's `db`. */
  db: Knex;
  /** The request's unit of work (./unit-of-work.ts): its `db`, and the work that waits for its commit. */
  uow: UnitOfWork;
  caller: Caller;
  log: Logger;
  requestId: string;
  /** The request's headers (the OAuth2 endpoints hand the request on to better-auth). */
  headers: IncomingHttpHeaders;
  /** The API version the request speaks (its Polar-Version, server/kit/api-versions.ts). */
  apiVersion: components["schemas"]["ApiVersion"];
  /** better-auth (the OAuth2 provider lives in it) and the API's public URL. */
  auth: AuthHandler;
  publicUrl: string;
  /** The client's address (server/auth/routes.ts's clientAddress: the TCP peer's, or the trusted proxy's header's). */
  clientIp: string | null;
  /** The request's Idempotency-Key, as the operation needs it (server/kit/idempotency.ts). */
  idempotency: IdempotencyContext;
}

/** The organization caller of a merchant operation (the router authenticated it already). */
export function orgCaller(ctx: Ctx): OrganizationCaller {
  if (ctx.caller.kind !== "organization") throw new Unauthorized();
  return ctx.caller;
}

/** The customer of a portal operation (the router authenticated the session already). */
export function portalCustomer(ctx: Ctx): CustomerCaller {
  if (ctx.caller.kind !== "customer") throw new Unauthorized();
  return ctx.caller;
}
