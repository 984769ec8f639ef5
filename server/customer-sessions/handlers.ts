// HTTP handler of the customer session operation.
import type { Handlers } from "../handlers.js";
import { orgCaller } from "../kit/context.js";
import { createCustomerSession } from "./service.js";

export const customerSessionHandlers: Handlers<"customer-sessions:create"> = {
  "customer-sessions:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCustomerSession(ctx.db, orgCaller(ctx), body as never),
  }),
};
