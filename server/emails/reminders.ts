// The periodic emails, enqueued by each run of the `email-reminders` Schedule: a renewal reminder
// for yearly subscriptions `renewal_reminder_days` before period end, and a card-expiring reminder
// for the card a live subscription renews with. "Now" is each subscription's own (its test clock's,
// else real time). Both are optional: the organization's switch and the customer's choice apply.
import type { Knex } from "knex";
import { wantsEmail } from "../customers/email-preferences.js";
import { byIds as customersByIds, type CustomerRow } from "../customers/repository.js";
import { DEFAULT_EMAIL_SETTINGS } from "../organizations/models.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { expiringCards, renewalsToRemind, type ExpiringCard, type RenewalToRemind } from "../subscriptions/repository.js";
import { customerEmailOn } from "./models.js";
import type { EmailSendInsert } from "./repository.js";
import { enqueueEmails } from "./service.js";

const BATCH = 500;

/** Enqueues every reminder due now; returns how many sends were new (a repeat run adds none). */
export async function enqueueDueReminders(knex: Knex): Promise<{ renewals: number; cards: number }> {
  const renewals = await eachPage(
    (after) => renewalsToRemind(knex, after, DEFAULT_EMAIL_SETTINGS.renewal_reminder_days, BATCH),
    (r) => r.id,
    (rows) => enqueueFor(knex, rows, renewalSend),
  );
  const cards = await eachPage(
    (after) => expiringCards(knex, after, BATCH),
    (c) => c.payment_method_id,
    (rows) => enqueueFor(knex, rows, cardSend),
  );
  return { renewals, cards };
}

async function eachPage<T>(
  page: (after: string | null) => Promise<T[]>,
  key: (row: T) => string,
  handle: (rows: T[]) => Promise<number>,
): Promise<number> {
  let count = 0;
  for (let after: string | null = null; ;) {
    const rows = await page(after);
    if (rows.length) count += await handle(rows);
    if (rows.length < BATCH) return count;
    after = key(rows[rows.length - 1]);
  }
}

type SendOf<T> = (row: T, organization: OrganizationRow, customer: CustomerRow) => EmailSendInsert | null;

/** The sends of one page, each to a live customer with an email whose organization sends it, in one transaction. */
async function enqueueFor<T extends { organization_id: string; customer_id: string }>(
  knex: Knex,
  rows: T[],
  sendOf: SendOf<T>,
): Promise<number> {
  const customers = new Map((await customersByIds(knex, [...new Set(rows.map((r) => r.customer_id))])).map((c) => [c.id, c]));
  const organizations = new Map<string, OrganizationRow | undefined>();
  const sends: EmailSendInsert[] = [];
  for (const row of rows) {
    if (!organizations.has(row.organization_id)) organizations.set(row.organization_id, await findOrganization(knex, row.organization_id));
    const organization = organizations.get(row.organization_id);
    const customer = customers.get(row.customer_id);
    if (!organization || !customer || customer.deleted_at || !customer.email) continue;
    const send = sendOf(row, organization, customer);
    if (send && wantsEmail(customer, send.kind)) sends.push(send);
  }
  if (sends.length === 0) return 0;
  return (await knex.transaction((trx) => enqueueEmails(trx, sends))).length;
}

function renewalSend(row: RenewalToRemind, organization: OrganizationRow, customer: CustomerRow): EmailSendInsert | null {
  if (!customerEmailOn(organization, "subscription_renewal_reminder")) return null;
  const renewsAt = new Date(row.current_period_end).toISOString();
  return {
    organization_id: row.organization_id,
    kind: "subscription_renewal_reminder",
    recipient: customer.email,
    customer_id: customer.id,
    dedupe_key: `reminder:${row.id}:${renewsAt}`,
    data: { renewal: { subscription_id: row.id, renews_at: renewsAt } },
  };
}

function cardSend(card: ExpiringCard, organization: OrganizationRow, customer: CustomerRow): EmailSendInsert | null {
  if (!customerEmailOn(organization, "payment_method_expiration_reminder")) return null;
  const month = `${card.exp_year}-${String(card.exp_month).padStart(2, "0")}`;
  return {
    organization_id: card.organization_id,
    kind: "payment_method_expiration_reminder",
    recipient: customer.email,
    customer_id: customer.id,
    dedupe_key: `card:${card.payment_method_id}:${month}`,
    data: {
      card: {
        payment_method_id: card.payment_method_id,
        subscription_id: card.subscription_id,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
      },
    },
  };
}
