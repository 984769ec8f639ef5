// The OrganizationAccessToken wire shape (never the token: only its hash is stored).
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";

export type OrganizationAccessTokenOut = components["schemas"]["OrganizationAccessToken"];
export type AvailableScope = components["schemas"]["AvailableScope"];

export interface OrganizationAccessTokenRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  comment: string;
  token_hash: string;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export function toOrganizationAccessToken(row: OrganizationAccessTokenRow, scopes: AvailableScope[]): OrganizationAccessTokenOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    comment: row.comment,
    scopes,
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
  };
}
