// Benefit grant wire shapes: the merchant's BenefitGrant, the webhook payload (the grant with its
// benefit and previous properties), the portal's CustomerBenefitGrant (with the benefit as the
// subscriber sees it and its organization), and the portal's DownloadableRead with a signed
// download URL.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import { toBenefit, type BenefitRow } from "../benefits/models.js";
import { toCustomer, toPortalCustomer, type CustomerOut } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { toFileBase, type FileRow } from "../files/models.js";
import { iso, isoRequired } from "../kit/time.js";
import { toOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import type { BenefitGrantRow, GrantRow } from "./repository.js";

export type BenefitGrantOut = components["schemas"]["BenefitGrant"];
export type CustomerBenefitGrantOut = components["schemas"]["CustomerBenefitGrant"];
export type DownloadableOut = components["schemas"]["DownloadableRead"];

type Props = Record<string, unknown>;

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

/** The data of benefit_grant.* webhooks: the grant, its customer and benefit, and what changed. */
export function toBenefitGrantWebhook(row: GrantRow, customer: CustomerRow, benefit: BenefitRow, previousProperties: Props | null = null) {
  return Object.assign(toBenefitGrant(row, toCustomer(customer)), { benefit: toBenefit(benefit), previous_properties: previousProperties });
}

function activeFiles(p: Props): string[] {
  const archived = (p.archived as Record<string, boolean> | undefined) ?? {};
  return ((p.files as string[] | undefined) ?? []).filter((f) => !archived[f]);
}

/** What a subscriber sees of a benefit's properties: never a secret (Discord's guild token). */
function subscriberProperties(benefit: BenefitRow): Props {
  const p: Props = benefit.properties;
  switch (benefit.type) {
    case "custom":
      return { note: p.note ?? null };
    case "discord":
      return { guild_id: p.guild_id };
    case "downloadables":
      return { active_files: activeFiles(p) };
    case "github_repository":
      return { repository_owner: p.repository_owner, repository_name: p.repository_name };
    case "license_keys":
      return { prefix: p.prefix ?? null, expires: p.expires ?? null, activations: p.activations ?? null, limit_usage: p.limit_usage ?? null };
    case "meter_credit":
      return { units: p.units, rollover: p.rollover, meter_id: p.meter_id };
    default:
      return {};
  }
}

export function toCustomerBenefitGrant(row: GrantRow, customer: CustomerRow, benefit: BenefitRow, org: OrganizationRow): CustomerBenefitGrantOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    granted_at: iso(row.granted_at),
    revoked_at: iso(row.revoked_at),
    customer_id: row.customer_id,
    benefit_id: row.benefit_id,
    subscription_id: row.subscription_id,
    order_id: row.order_id,
    is_granted: row.granted_at !== null,
    is_revoked: row.revoked_at !== null,
    customer: toPortalCustomer(customer),
    benefit: {
      id: benefit.id,
      created_at: isoRequired(benefit.created_at),
      modified_at: iso(benefit.modified_at),
      type: benefit.type,
      description: benefit.description,
      selectable: benefit.selectable,
      deletable: benefit.deletable,
      organization_id: benefit.organization_id,
      metadata: benefit.metadata,
      organization: toOrganization(org),
      properties: subscriberProperties(benefit),
    },
    properties: row.properties,
    // eslint-disable-next-line no-restricted-syntax -- benefit and grant properties are untyped jsonb rows, paired by benefit type (see issue 21)
  } as CustomerBenefitGrantOut;
}

/** A stable id for one file of one grant (the downloadable the customer holds). */
export function downloadableId(grantId: string, fileId: string): string {
  const h = createHash("sha256").update(`${grantId}:${fileId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function toDownloadable(grantId: string, benefitId: string, file: FileRow, download: { url: string; headers: Record<string, string>; expires_at: Date }): DownloadableOut {
  const { created_at: _created, ...base } = toFileBase(file);
  return {
    id: downloadableId(grantId, file.id),
    benefit_id: benefitId,
    file: Object.assign(base, { download: { url: download.url, headers: download.headers, expires_at: isoRequired(download.expires_at) } }),
  };
}
