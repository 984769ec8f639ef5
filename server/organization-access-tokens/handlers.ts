// HTTP handlers of the organization access token operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import {
  createOrganizationAccessToken,
  deleteOrganizationAccessToken,
  listOrganizationAccessTokens,
  updateOrganizationAccessToken,
} from "./service.js";

type Ops =
  | "organization_access_tokens:list"
  | "organization_access_tokens:create"
  | "organization_access_tokens:update"
  | "organization_access_tokens:delete";

export const organizationAccessTokenHandlers: Handlers<Ops> = {
  "organization_access_tokens:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listOrganizationAccessTokens(ctx.db, orgCaller(ctx), query ?? {}),
  }),
  "organization_access_tokens:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createOrganizationAccessToken(ctx.db, orgCaller(ctx), body),
  }),
  "organization_access_tokens:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateOrganizationAccessToken(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "organization_access_tokens:delete": async ({ params }, ctx) => {
    await deleteOrganizationAccessToken(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
};
