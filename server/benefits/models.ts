// The Benefit wire shape (all six types share one; `properties` is per type) and its public fields.
import type { components } from "../../generated/types.js";
import type { Metadata } from "../kit/metadata.js";
import { iso, isoRequired } from "../kit/time.js";

export type BenefitOut = components["schemas"]["Benefit"];
export type BenefitType = components["schemas"]["BenefitType"];
export type BenefitVisibility = components["schemas"]["BenefitVisibility"];

/**
 * The types whose visibility may be other than public. The others ask the customer to act in the
 * portal (join the Discord server, accept the GitHub invitation, download the files).
 */
export const VISIBILITY_CONFIGURABLE: ReadonlySet<BenefitType> = new Set(["custom", "license_keys", "meter_credit"]);
/** A benefit's properties by its type, as the service checked them before writing them. */
export type BenefitProperties<T extends BenefitType = BenefitType> = Extract<BenefitOut, { type: T }>["properties"];

interface BenefitColumns {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  description: string;
  selectable: boolean;
  deletable: boolean;
  metadata: Metadata;
  visibility: BenefitVisibility;
  deleted_at: Date | null;
}

/** A benefits row: its type says the shape of its properties. */
export type BenefitRow = { [T in BenefitType]: BenefitColumns & { type: T; properties: BenefitProperties<T> } }[BenefitType];

/** A benefit as a customer sees it inside a public product: no metadata, no properties. */
export function toBenefitPublic<T extends BenefitType>(row: BenefitColumns & { type: T }) {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    is_deleted: row.deleted_at !== null,
    organization_id: row.organization_id,
  };
}

/** The benefits a customer is shown (on a product): the public ones. */
export function toPublicBenefits<T extends BenefitType>(rows: (BenefitColumns & { type: T })[]) {
  return rows.filter((row) => row.visibility === "public").map(toBenefitPublic);
}

/** One variant's wire shape; `toBenefit` calls it with the row narrowed to its type. */
function toVariant<T extends BenefitType>(row: BenefitColumns & { type: T; properties: BenefitProperties<T> }) {
  return Object.assign(toBenefitPublic(row), {
    metadata: row.metadata,
    properties: row.properties,
    visibility: row.visibility,
    visibility_configurable: VISIBILITY_CONFIGURABLE.has(row.type),
  });
}

export function toBenefit(row: BenefitRow): BenefitOut {
  switch (row.type) {
    case "custom":
      return toVariant(row);
    case "discord":
      return toVariant(row);
    case "github_repository":
      return toVariant(row);
    case "downloadables":
      return toVariant(row);
    case "license_keys":
      return toVariant(row);
    case "meter_credit":
      return toVariant(row);
  }
}
