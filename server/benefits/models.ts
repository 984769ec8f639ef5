// The Benefit and BenefitGrant wire shapes (all six types share one; `properties` is per type).
import type { components } from "../../generated/types.js";
import type { CustomerOut } from "../customers/models.js";
import type { Metadata } from "../kit/metadata.js";
import { iso, isoRequired } from "../kit/time.js";

export interface BenefitRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  type: BenefitType;
  description: string;
  selectable: boolean;
  deletable: boolean;
  metadata: Metadata;
  properties: Record<string, unknown>;
  deleted_at: Date | null;
}

export type BenefitOut = components["schemas"]["Benefit"];
export type BenefitType = components["schemas"]["BenefitType"];

export function toBenefit(row: BenefitRow): BenefitOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    organization_id: row.organization_id,
    metadata: row.metadata,
    properties: row.properties,
    // The service checks a benefit's properties against its type before writing them; the column
    // is untyped jsonb, so the row's type and properties are paired here.
    // eslint-disable-next-line no-restricted-syntax -- per-type properties are not yet a typed row (see issue 21)
  } as BenefitOut;
}

export interface BenefitGrantRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  benefit_id: string;
  customer_id: string;
  subscription_id: string | null;
  order_id: string | null;
  granted_at: Date | null;
  revoked_at: Date | null;
  properties: Record<string, unknown>;
  error: { message: string; type: string; timestamp: string } | null;
}

export type BenefitGrantOut = components["schemas"]["BenefitGrant"];

export function toBenefitGrant(row: BenefitGrantRow, customer: CustomerOut): BenefitGrantOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    granted_at: iso(row.granted_at),
    is_granted: row.granted_at !== null,
    revoked_at: iso(row.revoked_at),
    is_revoked: row.revoked_at !== null,
    subscription_id: row.subscription_id,
    order_id: row.order_id,
    customer_id: row.customer_id,
    benefit_id: row.benefit_id,
    error: row.error,
    customer,
    properties: row.properties,
  };
}
