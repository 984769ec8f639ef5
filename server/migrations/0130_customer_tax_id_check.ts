// A customer's tax id as VIES (EU) or HMRC (UK) confirmed it: the status, what the
// registry returned, when and by which service, and when a check is due (null: none). A trigger
// resets the check whenever the tax id is set or changed, whichever code path writes it.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table customers
      add column tax_id_check_status text check (tax_id_check_status in ('valid', 'invalid', 'unavailable', 'unchecked')),
      add column tax_id_check_name text,
      add column tax_id_check_address text,
      add column tax_id_checked_at timestamptz,
      add column tax_id_check_service text,
      add column tax_id_check_due_at timestamptz`);
  await knex.raw("create index customers_tax_id_check_due on customers (tax_id_check_due_at) where tax_id_check_due_at is not null");
  await knex.raw(`
    create function customers_tax_id_check_reset() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.tax_id is distinct from old.tax_id then
        new.tax_id_check_status := case when new.tax_id is null then null else 'unchecked' end;
        new.tax_id_check_name := null;
        new.tax_id_check_address := null;
        new.tax_id_checked_at := null;
        new.tax_id_check_service := null;
        new.tax_id_check_due_at := case when new.tax_id is null then null else now() end;
      end if;
      return new;
    end $$`);
  await knex.raw(`
    create trigger customers_tax_id_check_reset before insert or update of tax_id on customers
      for each row execute function customers_tax_id_check_reset()`);
  // Customers who had a tax id before: unchecked, and due.
  await knex.raw(
    "update customers set tax_id_check_status = 'unchecked', tax_id_check_due_at = now() where tax_id is not null and deleted_at is null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop trigger if exists customers_tax_id_check_reset on customers");
  await knex.raw("drop function if exists customers_tax_id_check_reset()");
  await knex.raw(`
    alter table customers
      drop column if exists tax_id_check_status, drop column if exists tax_id_check_name,
      drop column if exists tax_id_check_address, drop column if exists tax_id_checked_at,
      drop column if exists tax_id_check_service, drop column if exists tax_id_check_due_at`);
}
