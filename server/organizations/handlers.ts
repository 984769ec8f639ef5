// HTTP handlers of the organization operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { Unauthorized } from "../kit/errors.js";
import { getNotificationPreferences, updateNotificationPreferences } from "./notification-preferences.js";
import { createOrganization, getOrganization, listOrganizations, updateOrganization } from "./service.js";

export const organizationHandlers: Handlers<"organizations:create" | "organizations:get" | "organizations:list" | "organizations:update"> =
  {
    // The router lets only a signed-in user (session cookie) through: they become the owner.
    "organizations:create": async ({ body }, ctx) => {
      if (ctx.caller.kind !== "user") throw new Unauthorized();
      return { status: 201, body: await createOrganization(ctx.db, body, { ownerUserId: ctx.caller.userId }) };
    },
    "organizations:get": async ({ params }, ctx) => ({
      status: 200,
      body: await getOrganization(ctx.db, orgCaller(ctx), params.id),
    }),
    "organizations:list": async ({ query }, ctx) => ({
      status: 200,
      body: await listOrganizations(ctx.db, orgCaller(ctx), query),
    }),
    "organizations:update": async ({ params, body }, ctx) => ({
      status: 200,
      body: await updateOrganization(ctx.db, orgCaller(ctx), params.id, body),
    }),
  };

/** The signed-in member's own notification emails (a Borealis extension, tagged `emails`). */
export const notificationPreferenceHandlers: Handlers<"emails:get_notification_preferences" | "emails:update_notification_preferences"> = {
  "emails:get_notification_preferences": async ({ params }, ctx) => ({
    status: 200,
    body: await getNotificationPreferences(ctx.db, orgCaller(ctx), params.id),
  }),
  "emails:update_notification_preferences": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateNotificationPreferences(ctx.db, orgCaller(ctx), params.id, body),
  }),
};
