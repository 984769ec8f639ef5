// HTTP handlers of the OAuth2 operations.
import { type Ctx, type Handlers } from "../kit/context.js";
import { createClient, deleteClient, getClient, listClients, updateClient } from "./clients.js";
import { describeAuthorization, introspectToken, requestToken, revokeToken, userInfo } from "./service.js";

type Ops =
  | "oauth2:authorize"
  | "oauth2:request_token"
  | "oauth2:revoke_token"
  | "oauth2:introspect_token"
  | "oauth2:userinfo"
  | "oauth2:list"
  | "oauth2:clients:oauth2:create_client"
  | "oauth2:clients:oauth2:get_client"
  | "oauth2:clients:oauth2:update_client"
  | "oauth2:clients:oauth2:delete_client";

const provider = (ctx: Ctx) => ({ auth: ctx.auth, publicUrl: ctx.publicUrl, headers: ctx.headers, clientIp: ctx.clientIp });

export const oauth2Handlers: Handlers<Ops> = {
  "oauth2:authorize": async ({ query }, ctx) => ({ status: 200, body: await describeAuthorization(ctx.db, ctx.caller, query) }),
  "oauth2:request_token": async ({ body }, ctx) => ({ status: 200, body: await requestToken(provider(ctx), body) }),
  "oauth2:revoke_token": async ({ body }, ctx) => ({ status: 200, body: await revokeToken(provider(ctx), body) }),
  "oauth2:introspect_token": async ({ body }, ctx) => ({ status: 200, body: await introspectToken(provider(ctx), ctx.db, body) }),
  "oauth2:userinfo": async (_input, ctx) => ({ status: 200, body: await userInfo(ctx.db, ctx.caller) }),
  "oauth2:list": async ({ query }, ctx) => ({ status: 200, body: await listClients(provider(ctx), query ?? {}) }),
  "oauth2:clients:oauth2:create_client": async ({ body }, ctx) => ({ status: 201, body: await createClient(provider(ctx), body) }),
  "oauth2:clients:oauth2:get_client": async ({ params }, ctx) => ({ status: 200, body: await getClient(provider(ctx), params.client_id) }),
  "oauth2:clients:oauth2:update_client": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateClient(provider(ctx), ctx.db, params.client_id, body),
  }),
  "oauth2:clients:oauth2:delete_client": async ({ params }, ctx) => {
    await deleteClient(provider(ctx), params.client_id);
    return { status: 204, body: null };
  },
};
