// Every order has its invoice number from the moment it is made (as Polar's, and the clients that
// read `invoice_number` as a string need): orders made before get theirs in the order they were
// made, after their organization's last number, and the column is required.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    with numbered as (
      select o.id, o.organization_id,
             coalesce(c.last_number, 0) + row_number() over (partition by o.organization_id order by o.created_at, o.id) as n
      from orders o left join invoice_counters c on c.organization_id = o.organization_id
      where o.invoice_number is null
    )
    update orders o set invoice_number = upper(org.slug) || '-' || lpad(numbered.n::text, 4, '0')
    from numbered join organizations org on org.id = numbered.organization_id where o.id = numbered.id`);
  await knex.raw(`
    insert into invoice_counters (organization_id, last_number)
    select o.organization_id, count(*) from orders o group by o.organization_id
    on conflict (organization_id) do update set last_number = greatest(invoice_counters.last_number, excluded.last_number)`);
  await knex.raw("alter table orders alter column invoice_number set not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table orders alter column invoice_number drop not null");
}
