// The customer's benefit granted email, one per grant (`grant:<id>`): what they got, by benefit
// type: the license key itself, each file with a download link that works while the grant holds
// it, the GitHub repository's invitation, the meter credits, the merchant's note (when the grant is
// applied: benefit_grant.created); where to connect Discord (when a Discord grant waits for that:
// the internal event email.benefit_grant_waiting). Read at send time; a grant revoked meanwhile sends nothing.
import type { Knex } from "knex";
import type { BenefitFile, GrantedBenefit } from "../../../emails/src/index.js";
import { findGrant, grantedFiles } from "../../benefit-grants/repository.js";
import { toBenefitGrantWebhook, type BenefitGrantWebhook } from "../../benefit-grants/models.js";
import { findBenefit } from "../../benefits/repository.js";
import { findCustomer } from "../../customers/repository.js";
import type { InternalEvents } from "../../kit/outbox.js";
import { findLicenseKey } from "../../license-keys/repository.js";
import { byIds as metersByIds } from "../../meters/repository.js";
import { findOrder } from "../../orders/repository.js";
import type { OrganizationRow } from "../../organizations/repository.js";
import { findProduct } from "../../products/repository.js";
import { findSubscription } from "../../subscriptions/repository.js";
import { benefitFileLink, portalLink } from "../links.js";
import { customerEmailOn, type EmailDefinition, type OutboxEvent } from "../models.js";
import type { EmailSendInsert } from "../repository.js";
import { customerBase, customerSend } from "./common.js";

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** What the grant gave, as the email shows it; null when there is nothing to show any more. */
async function grantedBenefit(db: Knex, organization: OrganizationRow, grant: BenefitGrantWebhook): Promise<GrantedBenefit | null> {
  const { benefit } = grant;
  const description = benefit.description;
  switch (benefit.type) {
    case "license_keys": {
      const id = "license_key_id" in grant.properties ? text(grant.properties.license_key_id) : null;
      const key = id ? await findLicenseKey(db, id) : undefined;
      if (!key || key.status !== "granted") return null;
      return {
        type: "license_keys",
        description,
        key: key.key,
        expires_at: key.expires_at?.toISOString() ?? null,
        activations_limit: key.limit_activations,
      };
    }
    case "downloadables": {
      const files: BenefitFile[] = [];
      for (const file of await grantedFiles(db, grant.id)) {
        const url = benefitFileLink(grant.id, file.id);
        if (url) files.push({ name: file.name, size: Number(file.size), url });
      }
      return files.length ? { type: "downloadables", description, files } : null;
    }
    case "github_repository": {
      const { repository_owner: owner, repository_name: name } = benefit.properties;
      return {
        type: "github_repository",
        description,
        repository_owner: owner,
        repository_name: name,
        invitation_url: `https://github.com/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/invitations`,
      };
    }
    case "discord":
      return { type: "discord", description, guild_name: null, connect_url: portalLink(organization.slug, "benefits") };
    case "meter_credit": {
      const [meter] = await metersByIds(db, [benefit.properties.meter_id]);
      return { type: "meter_credit", description, meter_name: meter?.name ?? "", units: benefit.properties.units };
    }
    case "custom":
      return { type: "custom", description, note: benefit.properties.note ?? null };
  }
}

/** The name of the product the grant came with (its order's, else its subscription's). */
async function productName(db: Knex, grant: BenefitGrantWebhook): Promise<string | null> {
  const of = grant.order_id
    ? await findOrder(db, grant.order_id)
    : grant.subscription_id
      ? await findSubscription(db, grant.subscription_id)
      : undefined;
  const product = of?.product_id ? await findProduct(db, of.product_id) : undefined;
  return product?.name ?? null;
}

/** The send of a grant's email, one per grant whatever event told of it. */
function grantSend(event: OutboxEvent, grant: BenefitGrantWebhook): EmailSendInsert[] {
  return customerSend("benefit_granted", event, grant.customer, { grant }).map((send) =>
    Object.assign(send, { dedupe_key: `grant:${grant.id}` }),
  );
}

/** A waiting grant as its webhook would tell it: its benefit and customer as they are now. */
async function waitingGrant(trx: Knex.Transaction, event: OutboxEvent): Promise<BenefitGrantWebhook | null> {
  const waiting: InternalEvents["email.benefit_grant_waiting"] = JSON.parse(event.data);
  const grant = await findGrant(trx, waiting.benefit_grant_id);
  const [benefit, customer] = grant ? await Promise.all([findBenefit(trx, grant.benefit_id), findCustomer(trx, grant.customer_id)]) : [];
  return grant && benefit && customer ? toBenefitGrantWebhook(grant, customer, benefit) : null;
}

export const benefitGranted: EmailDefinition = {
  kind: "benefit_granted",
  trigger: {
    // Applied (benefit_grant.created); a Discord grant is told when it waits for the customer to
    // connect their account, which is what its email asks them to do.
    on: ["benefit_grant.created", "email.benefit_grant_waiting"],
    async sends(trx, event, organization) {
      if (!customerEmailOn(organization, "benefit_granted")) return [];
      if (event.type === "email.benefit_grant_waiting") {
        const grant = await waitingGrant(trx, event);
        return grant?.benefit.type === "discord" && !grant.is_revoked ? grantSend(event, grant) : [];
      }
      const grant: BenefitGrantWebhook = JSON.parse(event.data);
      return grant.is_granted && grant.benefit.type !== "discord" ? grantSend(event, grant) : [];
    },
  },
  async message(db, send, brand, organization) {
    const grant = send.data.grant;
    const current = grant ? await findGrant(db, grant.id) : undefined;
    if (!grant || !current || current.revoked_at) return null;
    const [benefit, product] = await Promise.all([grantedBenefit(db, organization, grant), productName(db, grant)]);
    if (!benefit) return null;
    return {
      kind: "benefit_granted",
      brand,
      props: Object.assign(customerBase(organization, grant.customer), {
        product_name: product ?? grant.benefit.description,
        benefit,
        benefits_url: portalLink(organization.slug, "benefits"),
      }),
    };
  },
};
