// Benefit grant wire shapes: the merchant's BenefitGrant, the webhook payload (the grant with its
// benefit and previous properties), the portal's CustomerBenefitGrant (with the benefit as the
// subscriber sees it and its organization), and the portal's DownloadableRead with a signed
// download URL.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import { toBenefit, type BenefitOut, type BenefitRow, type BenefitType } from "../benefits/models.js";
import { toCustomer, toPortalCustomer, type CustomerOut } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { toFileBase, type FileRow } from "../files/models.js";
import { iso, isoRequired } from "../kit/time.js";
import { toPublicOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import type { BenefitGrantRow, GrantRow } from "./repository.js";

export type BenefitGrantOut = components["schemas"]["BenefitGrant"];
export type CustomerBenefitGrantOut = components["schemas"]["CustomerBenefitGrant"];
export type DownloadableOut = components["schemas"]["DownloadableRead"];

type Props = Record<string, unknown>;

export function toBenefitGrant(row: BenefitGrantRow, customer: CustomerOut, benefit: BenefitOut): BenefitGrantOut {
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
    benefit,
    properties: row.properties,
  };
}

/** The data of benefit_grant.* webhooks: the grant, its customer and benefit, and what changed. */
export type BenefitGrantWebhook = ReturnType<typeof toBenefitGrantWebhook>;

export function toBenefitGrantWebhook(row: GrantRow, customer: CustomerRow, benefit: BenefitRow, previousProperties: Props | null = null) {
  return Object.assign(toBenefitGrant(row, toCustomer(customer), toBenefit(benefit)), { previous_properties: previousProperties });
}

/** The portal's grant of one benefit type, and its two properties objects. */
type CustomerGrantOf<T extends BenefitType> = Extract<CustomerBenefitGrantOut, { benefit: { type: T } }>;
type GrantPropertiesOf<T extends BenefitType> = CustomerGrantOf<T>["properties"];
type SubscriberPropertiesOf<T extends BenefitType> = CustomerGrantOf<T>["benefit"]["properties"];

// A grant's properties are a jsonb object its strategy wrote (strategies.ts); the portal shows the
// fields its contract names for the benefit's type, each only when it holds a value of its type.
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const textOrNull = (v: unknown): string | null | undefined => (v === null ? null : text(v));
const count = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const texts = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined);
const GITHUB_PERMISSIONS = ["pull", "triage", "push", "maintain", "admin"] as const;
const permission = (v: unknown) => GITHUB_PERMISSIONS.find((x) => x === v);
/** The object without its undefined fields (a field the row does not hold is absent, not null). */
function present<T extends object>(o: T): T {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === undefined) delete o[key];
  return o;
}

/** The portal's grant of a benefit of type T, from its properties as the subscriber sees them and the grant's. */
function customerGrant<T extends BenefitType>(
  row: GrantRow,
  customer: CustomerRow,
  benefit: BenefitRow & { type: T },
  org: OrganizationRow,
  subscriber: SubscriberPropertiesOf<T>,
  properties: GrantPropertiesOf<T>,
) {
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
      is_deleted: benefit.deleted_at !== null,
      organization_id: benefit.organization_id,
      metadata: benefit.metadata,
      organization: toPublicOrganization(org),
      properties: subscriber,
    },
    properties,
  };
}

/** A grant as its customer sees it: the benefit without its secrets (Discord's guild token), each paired by the benefit's type. */
export function toCustomerBenefitGrant(
  row: GrantRow,
  customer: CustomerRow,
  benefit: BenefitRow,
  org: OrganizationRow,
): CustomerBenefitGrantOut {
  const g = row.properties;
  switch (benefit.type) {
    case "custom":
      return customerGrant(row, customer, benefit, org, { note: benefit.properties.note ?? null }, {});
    case "discord":
      return customerGrant(
        row,
        customer,
        benefit,
        org,
        { guild_id: benefit.properties.guild_id },
        present({
          account_id: textOrNull(g.account_id),
          guild_id: text(g.guild_id),
          role_id: text(g.role_id),
          granted_account_id: text(g.granted_account_id),
        }),
      );
    case "downloadables": {
      const { files, archived } = benefit.properties;
      return customerGrant(
        row,
        customer,
        benefit,
        org,
        { active_files: files.filter((f) => !archived[f]) },
        present({ files: texts(g.files) }),
      );
    }
    case "github_repository":
      return customerGrant(
        row,
        customer,
        benefit,
        org,
        { repository_owner: benefit.properties.repository_owner, repository_name: benefit.properties.repository_name },
        present({
          account_id: textOrNull(g.account_id),
          repository_owner: text(g.repository_owner),
          repository_name: text(g.repository_name),
          permission: permission(g.permission),
          granted_account_id: text(g.granted_account_id),
        }),
      );
    case "license_keys": {
      const p = benefit.properties;
      return customerGrant(
        row,
        customer,
        benefit,
        org,
        { prefix: p.prefix ?? null, expires: p.expires ?? null, activations: p.activations ?? null, limit_usage: p.limit_usage ?? null },
        present({ license_key_id: text(g.license_key_id), display_key: text(g.display_key) }),
      );
    }
    case "meter_credit":
      return customerGrant(
        row,
        customer,
        benefit,
        org,
        { units: benefit.properties.units, rollover: benefit.properties.rollover, meter_id: benefit.properties.meter_id },
        present({
          last_credited_meter_id: text(g.last_credited_meter_id),
          last_credited_units: count(g.last_credited_units),
          last_credited_at: text(g.last_credited_at),
        }),
      );
  }
}

/** A stable id for one file of one grant (the downloadable the customer holds). */
export function downloadableId(grantId: string, fileId: string): string {
  const h = createHash("sha256").update(`${grantId}:${fileId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function toDownloadable(
  grantId: string,
  benefitId: string,
  file: FileRow,
  download: { url: string; headers: Record<string, string>; expires_at: Date },
): DownloadableOut {
  const { created_at: _created, ...base } = toFileBase(file);
  return {
    id: downloadableId(grantId, file.id),
    benefit_id: benefitId,
    file: Object.assign(base, { download: { url: download.url, headers: download.headers, expires_at: isoRequired(download.expires_at) } }),
  };
}
