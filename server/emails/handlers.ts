// HTTP handlers of the emails operations (a Borealis extension): the list of sends, resending a
// receipt (201 with the new send), and a preview.
import { orgCaller, type Handlers } from "../kit/context.js";
import { listEmailSends, previewEmail, resendEmail } from "./sends-service.js";

export const emailHandlers: Handlers<"emails:list" | "emails:resend" | "emails:preview"> = {
  "emails:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listEmailSends(ctx.db, orgCaller(ctx), query),
  }),
  "emails:resend": async ({ params }, ctx) => ({
    status: 201,
    body: await resendEmail(ctx.db, orgCaller(ctx), params.id),
  }),
  "emails:preview": async ({ body }, ctx) => ({
    status: 200,
    body: await previewEmail(ctx.db, orgCaller(ctx), body),
  }),
};
