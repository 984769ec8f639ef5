// Each member's own choice of the organization's notification emails: every kind goes
// to the owners and admins until one of them mutes it for themselves. The pipeline asks
// `mutedMembers` (notification-mutes-repository.ts) whom to leave out.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { deleteMutes, insertMutes, mutedKinds } from "./notification-mutes-repository.js";
import { lockMember } from "./repository.js";

export type NotificationPreferences = components["schemas"]["OrganizationNotificationPreferences"];
type NotificationPreferencesUpdate = components["schemas"]["OrganizationNotificationPreferencesUpdate"];
export type NotificationKind = keyof NotificationPreferences;

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  "notification_new_sale",
  "notification_new_subscription",
  "notification_subscription_cancellation",
  "notification_refund",
  "webhook_endpoint_disabled",
];

/** The member calling: preferences are a signed-in member's own, so a token (which is no one) has none. */
function memberOf(caller: OrganizationCaller, organizationId: string): { organizationId: string; userId: string } {
  if (organizationId !== caller.organizationId) throw new ResourceNotFound("Organization not found.");
  if (!caller.member) throw new NotPermitted("Notification preferences are a member's own: sign in to change yours.");
  return { organizationId, userId: caller.member.userId };
}

function preferences(muted: string[]): NotificationPreferences {
  const on = (kind: NotificationKind) => !muted.includes(kind);
  return {
    notification_new_sale: on("notification_new_sale"),
    notification_new_subscription: on("notification_new_subscription"),
    notification_subscription_cancellation: on("notification_subscription_cancellation"),
    notification_refund: on("notification_refund"),
    webhook_endpoint_disabled: on("webhook_endpoint_disabled"),
  };
}

export async function getNotificationPreferences(
  db: Knex,
  caller: OrganizationCaller,
  organizationId: string,
): Promise<NotificationPreferences> {
  const { userId } = memberOf(caller, organizationId);
  return preferences(await mutedKinds(db, organizationId, userId));
}

export async function updateNotificationPreferences(
  db: Knex,
  caller: OrganizationCaller,
  organizationId: string,
  input: NotificationPreferencesUpdate,
): Promise<NotificationPreferences> {
  const { userId } = memberOf(caller, organizationId);
  const given = NOTIFICATION_KINDS.filter((kind) => input[kind] !== undefined);
  return db.transaction(async (trx) => {
    if (!(await lockMember(trx, organizationId, userId))) throw new ResourceNotFound("Organization not found.");
    await insertMutes(
      trx,
      organizationId,
      userId,
      given.filter((kind) => input[kind] === false),
    );
    await deleteMutes(
      trx,
      organizationId,
      userId,
      given.filter((kind) => input[kind] === true),
    );
    return preferences(await mutedKinds(trx, organizationId, userId));
  });
}
