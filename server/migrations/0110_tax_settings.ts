// Tax: each organization's tax settings (who computes the tax, where it sells from,
// whether prices include tax, where it is registered) and each product's tax category.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table organizations
      add column tax_settings jsonb not null
        default '{"provider": "none", "origin_country": null, "prices_include_tax": false, "registrations": []}'`);
  await knex.raw(`
    alter table products
      add column tax_category text not null default 'digital_service'
        check (tax_category in ('digital_service', 'ebook', 'saas', 'general'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table products drop column if exists tax_category");
  await knex.raw("alter table organizations drop column if exists tax_settings");
}
