// The license key wire shapes: LicenseKeyRead (with its customer), LicenseKeyWithActivations,
// ValidatedLicenseKey, and the activation shapes.
import type { components } from "../../generated/types.js";
import { toCustomerBase } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import type { ActivationRow, LicenseKeyRow } from "./repository.js";

export type LicenseKeyOut = components["schemas"]["LicenseKeyRead"];
export type LicenseKeyWithActivationsOut = components["schemas"]["LicenseKeyWithActivations"];
export type ValidatedLicenseKeyOut = components["schemas"]["ValidatedLicenseKey"];
export type ActivationBaseOut = components["schemas"]["LicenseKeyActivationBase"];
export type ActivationOut = components["schemas"]["LicenseKeyActivationRead"];
export type ActivationCreatedOut = components["schemas"]["LicenseKeyActivationCreated"];

export function toLicenseKey(row: LicenseKeyRow, customer: CustomerRow): LicenseKeyOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    customer: toCustomerBase(customer),
    // A key is a member's once team customers have members; until then none is.
    member_id: null,
    member: null,
    benefit_id: row.benefit_id,
    key: row.key,
    display_key: row.display_key,
    status: row.status,
    limit_activations: row.limit_activations,
    usage: row.usage,
    limit_usage: row.limit_usage,
    validations: row.validations,
    last_validated_at: iso(row.last_validated_at),
    expires_at: iso(row.expires_at),
  };
}

export function toActivationBase(row: ActivationRow): ActivationBaseOut {
  return {
    id: row.id,
    license_key_id: row.license_key_id,
    label: row.label,
    meta: row.meta,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
  };
}

export function toActivation(row: ActivationRow, licenseKey: LicenseKeyOut): ActivationOut {
  return Object.assign(toActivationBase(row), { license_key: licenseKey });
}

/** A new activation: its key is granted, as only a granted key is activated. */
export function toActivationCreated(row: ActivationRow, licenseKey: LicenseKeyOut & { status: "granted" }): ActivationCreatedOut {
  return Object.assign(toActivationBase(row), { license_key: licenseKey });
}
