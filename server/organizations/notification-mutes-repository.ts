// The merchant notifications each member muted for themselves (member_notification_mutes, one
// row per muted kind; migration 0165).
import type { Knex } from "knex";

/** The kinds the member muted in the organization. */
export async function mutedKinds(db: Knex, organizationId: string, userId: string): Promise<string[]> {
  const rows: { kind: string }[] = await db("member_notification_mutes")
    .where({ organization_id: organizationId, user_id: userId })
    .select("kind");
  return rows.map((r) => r.kind);
}

/** The members (user ids) of the organization who muted this kind of notification. */
export async function mutedMembers(db: Knex, organizationId: string, kind: string): Promise<string[]> {
  const rows: { user_id: string }[] = await db("member_notification_mutes")
    .where({ organization_id: organizationId, kind })
    .select("user_id");
  return rows.map((r) => r.user_id);
}

/** Mutes these kinds for the member (those already muted stay so). */
export async function insertMutes(db: Knex, organizationId: string, userId: string, kinds: string[]): Promise<void> {
  if (kinds.length === 0) return;
  await db("member_notification_mutes")
    .insert(kinds.map((kind) => ({ organization_id: organizationId, user_id: userId, kind })))
    .onConflict(["organization_id", "user_id", "kind"])
    .ignore();
}

/** Unmutes these kinds for the member. */
export async function deleteMutes(db: Knex, organizationId: string, userId: string, kinds: string[]): Promise<void> {
  if (kinds.length === 0) return;
  await db("member_notification_mutes").where({ organization_id: organizationId, user_id: userId }).whereIn("kind", kinds).delete();
}
