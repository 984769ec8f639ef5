// The customer portal: the authenticated customer reads and updates their own billing details
// (billing name, address, tax id — the type of a bare tax id is found from the billing
// country) and which reminders they get, and anyone can look up an organization's storefront by slug.
import type { OpBody } from "../../generated/handlers.js";
import type { Knex } from "knex";
import { checkAddress } from "../customers/address.js";
import { toCustomer, toPortalCustomer, type PortalCustomerOut } from "../customers/models.js";
import { defaultPaymentMethodId, findReadable, updateCustomerRow, type CustomerRow } from "../customers/repository.js";
import { updatedEmailPreferences } from "../customers/email-preferences.js";
import { detectTaxId } from "../customers/tax-id.js";
import { checkTaxIdAfterCommit } from "../customers/tax-id-check.js";
import type { CustomerCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound, Unauthorized } from "../kit/errors.js";
import { emit } from "../kit/outbox.js";
import { findOrganizationBySlug } from "../organizations/repository.js";
import { loadRelations, storefrontProducts } from "../products/repository.js";
import { toCustomerOrganization, type CustomerOrganizationOut } from "./models.js";
import { requireSection } from "./sections.js";

export type PortalCustomerUpdateInput = OpBody<"customer_portal:customers:update">;

async function me(db: Knex, caller: CustomerCaller, opts: { forUpdate?: boolean } = {}): Promise<CustomerRow> {
  const row = await findReadable(db, caller, { id: caller.customerId }, opts);
  // The session was checked at authentication; the customer can only vanish in between.
  if (!row) throw new Unauthorized("Invalid or expired customer session.");
  return row;
}

export async function getPortalCustomer(db: Knex, caller: CustomerCaller): Promise<PortalCustomerOut> {
  const [row, defaultId] = await Promise.all([me(db, caller), defaultPaymentMethodId(db, caller.customerId)]);
  return toPortalCustomer(row, defaultId);
}

export async function updatePortalCustomer(db: Knex, caller: CustomerCaller, input: PortalCustomerUpdateInput): Promise<PortalCustomerOut> {
  if (input.billing_name !== undefined || input.billing_address !== undefined || input.tax_id !== undefined) {
    await requireSection(db, "billing_details", caller);
  }
  return db.transaction(async (trx) => {
    const row = await me(trx, caller, { forUpdate: true });
    const patch: Record<string, unknown> = {};
    if (input.billing_name !== undefined) {
      const name = typeof input.billing_name === "string" ? input.billing_name.trim() : null;
      patch.billing_name = name === "" ? null : name;
    }
    let country = row.billing_address?.country ?? null;
    if (input.billing_address !== undefined) {
      const address = input.billing_address === null ? null : checkAddress(input.billing_address);
      country = address?.country ?? null;
      patch.billing_address = address === null ? null : JSON.stringify(address);
    }
    if (input.tax_id !== undefined) {
      if (input.tax_id === null || input.tax_id.trim() === "") {
        patch.tax_id = null;
      } else {
        if (country === null) throw invalid(["body", "billing_address"], "Country is required to validate tax ID.", "missing");
        patch.tax_id = JSON.stringify(detectTaxId(input.tax_id, country));
      }
    }
    if (input.email_preferences !== undefined && input.email_preferences !== null) {
      patch.email_preferences = JSON.stringify(updatedEmailPreferences(row, input.email_preferences));
    }
    patch.modified_at = new Date();
    const updated = await updateCustomerRow(trx, row.id, patch);
    if ("tax_id" in patch) checkTaxIdAfterCommit(trx, updated);
    await emit(trx, caller.organizationId, "customer.updated", toCustomer(updated));
    return toPortalCustomer(updated, await defaultPaymentMethodId(trx, caller.customerId));
  });
}

export async function getStorefront(db: Knex, slug: string): Promise<CustomerOrganizationOut> {
  const org = await findOrganizationBySlug(db, slug);
  if (!org) throw new ResourceNotFound("Organization not found.");
  const products = await storefrontProducts(db, org.id);
  const rel = await loadRelations(
    db,
    products.map((p) => p.id),
  );
  return toCustomerOrganization(
    org,
    products.map((row) => ({ row, rel: rel.get(row.id)! })),
  );
}
