// What every handler receives besides its validated input: the database, the caller, a logger
// bound to the request id, and what the operation needs of the request's Idempotency-Key.
import type { Knex } from "knex";
import type { Caller, OrganizationCaller } from "./auth.js";
import { Unauthorized } from "./errors.js";
import type { IdempotencyContext } from "./idempotency.js";
import type { Logger } from "./logger.js";

export interface Ctx {
  db: Knex;
  caller: Caller;
  log: Logger;
  requestId: string;
  /** The request's Idempotency-Key, as the operation needs it (server/http/idempotency.ts). */
  idempotency: IdempotencyContext;
}

/** The organization caller of a merchant operation (the router authenticated it already). */
export function orgCaller(ctx: Ctx): OrganizationCaller {
  if (ctx.caller.kind !== "organization") throw new Unauthorized();
  return ctx.caller;
}
