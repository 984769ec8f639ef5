// HTTP handlers of the OAuth2 operations.
import { type Ctx, type Handlers } from "../kit/context.js";
import { describeAuthorization, introspectToken, requestToken, revokeToken, userInfo } from "./service.js";

type Ops = "oauth2:authorize" | "oauth2:request_token" | "oauth2:revoke_token" | "oauth2:introspect_token" | "oauth2:userinfo";

const provider = (ctx: Ctx) => ({ auth: ctx.auth, publicUrl: ctx.publicUrl, headers: ctx.headers, clientIp: ctx.clientIp });

export const oauth2Handlers: Handlers<Ops> = {
  "oauth2:authorize": async ({ query }, ctx) => ({ status: 200, body: await describeAuthorization(ctx.db, ctx.caller, query) }),
  "oauth2:request_token": async ({ body }, ctx) => ({ status: 200, body: await requestToken(provider(ctx), body) }),
  "oauth2:revoke_token": async ({ body }, ctx) => ({ status: 200, body: await revokeToken(provider(ctx), body) }),
  "oauth2:introspect_token": async ({ body }, ctx) => ({ status: 200, body: await introspectToken(provider(ctx), ctx.db, body) }),
  "oauth2:userinfo": async (_input, ctx) => ({ status: 200, body: await userInfo(ctx.db, ctx.caller) }),
};
