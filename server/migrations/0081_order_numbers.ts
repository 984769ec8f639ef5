// Orders carry their printed numbers: the invoice number as it is printed (`ACME-0007`, text, like
// Polar's), and a receipt number (`RCPT-ACME-0001`) given when the order is paid, from the
// organization's own receipt sequence beside its invoice sequence. The platform fee is what the
// platform (PLATFORM_FEE_* settings) takes of the order, recorded when it is paid. The applied
// balance is a customer balance applied to the order (none is applied yet).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table orders add column invoice_number_text text");
  await knex.raw(`
    update orders o set invoice_number_text = upper(org.slug) || '-' || lpad(o.invoice_number::text, 4, '0')
    from organizations org where org.id = o.organization_id and o.invoice_number is not null`);
  await knex.raw("alter table orders drop column invoice_number");
  await knex.raw("alter table orders rename column invoice_number_text to invoice_number");
  await knex.raw("alter table orders add constraint orders_organization_id_invoice_number_unique unique (organization_id, invoice_number)");

  await knex.raw("alter table invoice_counters add column last_receipt_number integer not null default 0");
  await knex.raw("alter table orders add column receipt_number text");
  await knex.raw("alter table orders add constraint orders_organization_id_receipt_number_unique unique (organization_id, receipt_number)");
  // Orders paid before receipts existed get theirs in the order they were made.
  await knex.raw(`
    with numbered as (
      select o.id, o.organization_id, row_number() over (partition by o.organization_id order by o.created_at, o.id) as n
      from orders o where o.status <> 'pending'
    )
    update orders o set receipt_number = 'RCPT-' || upper(org.slug) || '-' || lpad(numbered.n::text, 4, '0')
    from numbered join organizations org on org.id = numbered.organization_id where o.id = numbered.id`);
  await knex.raw(`
    insert into invoice_counters (organization_id, last_number, last_receipt_number)
    select organization_id, 0, count(*) from orders where receipt_number is not null group by organization_id
    on conflict (organization_id) do update set last_receipt_number = excluded.last_receipt_number`);

  await knex.raw("alter table orders add column applied_balance_amount bigint not null default 0");
  await knex.raw("alter table orders add column platform_fee_amount bigint not null default 0");
  await knex.raw("alter table orders add column platform_fee_currency text");
}

export async function down(knex: Knex): Promise<void> {
  for (const column of ["platform_fee_currency", "platform_fee_amount", "applied_balance_amount", "receipt_number"]) {
    await knex.raw(`alter table orders drop column if exists ${column}`);
  }
  await knex.raw("alter table invoice_counters drop column if exists last_receipt_number");
  await knex.raw("alter table orders add column invoice_number_int integer");
  await knex.raw(
    "update orders set invoice_number_int = substring(invoice_number from '([0-9]+)$')::integer where invoice_number is not null",
  );
  await knex.raw("alter table orders drop column invoice_number");
  await knex.raw("alter table orders rename column invoice_number_int to invoice_number");
  await knex.raw("alter table orders add constraint orders_organization_id_invoice_number_unique unique (organization_id, invoice_number)");
}
