// A member as the merchant API (Member) and the customer portal (CustomerPortalMember) show it.
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import type { MemberRow } from "./repository.js";

export type MemberOut = components["schemas"]["Member"];
export type PortalMemberOut = components["schemas"]["CustomerPortalMember"];

export function toMember(row: MemberRow): MemberOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    customer_id: row.customer_id,
    email: row.email,
    name: row.name,
    external_id: row.external_id,
    role: row.role,
  };
}

export function toPortalMember(row: MemberRow): PortalMemberOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
  };
}
