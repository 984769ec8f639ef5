// GET /api/auth/invitation/preview?id=…: what an invitation email's link shows someone not signed
// in yet: the organization's name and the invited email, so they can sign up with it and join in
// one flow. The id (a random UUID, only in the email) is the proof; anything else answers 404.
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import type pg from "pg";
import * as z from "zod";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const INVITATION_NOT_FOUND = "Invitation not found";

export interface InvitationPreview {
  email: string;
  status: string;
  expiresAt: string;
  organizationName: string;
  organizationLogo: string | null;
  /** whether the invited email has an account already (sign in rather than sign up) */
  hasAccount: boolean;
}

export function invitationPreview(pool: pg.Pool) {
  return {
    id: "borealis-invitation-preview",
    endpoints: {
      previewInvitation: createAuthEndpoint("/invitation/preview", { method: "GET", query: z.object({ id: z.string() }) }, async (ctx) => {
        const id = ctx.query.id.trim();
        if (!UUID.test(id)) throw new APIError("NOT_FOUND", { message: INVITATION_NOT_FOUND });
        const { rows } = await pool.query<{
          email: string;
          status: string;
          expires_at: Date;
          name: string;
          avatar_url: string | null;
          has_account: boolean;
        }>(
          `select i.email, i.status, i.expires_at, o.name, o.avatar_url,
                  exists (select 1 from users u where lower(u.email) = lower(i.email)) as has_account
             from invitations i join organizations o on o.id = i.organization_id
            where i.id = $1`,
          [id],
        );
        const row = rows[0];
        if (!row) throw new APIError("NOT_FOUND", { message: INVITATION_NOT_FOUND });
        const preview: InvitationPreview = {
          email: row.email,
          status: row.status === "pending" && row.expires_at < new Date() ? "expired" : row.status,
          expiresAt: row.expires_at.toISOString(),
          organizationName: row.name,
          organizationLogo: row.avatar_url,
          hasAccount: row.has_account,
        };
        return ctx.json(preview);
      }),
    },
  } satisfies BetterAuthPlugin;
}
