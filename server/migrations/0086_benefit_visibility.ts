// Who sees a benefit: public (customers, on products and in the portal), private or draft (only
// the merchant; the benefit is still granted).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "alter table benefits add column visibility text not null default 'public' check (visibility in ('draft', 'private', 'public'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table benefits drop column if exists visibility");
}
