// A meter's unit (scalar, token or custom), which sets how its prices and quantities are shown; a
// custom unit has a label and a multiplier (shown per that many units).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table meters
      add column unit text not null default 'scalar' check (unit in ('scalar', 'token', 'custom')),
      add column custom_label text,
      add column custom_multiplier integer check (custom_multiplier > 0),
      add constraint meters_custom_unit check ((unit = 'custom') = (custom_label is not null) and (unit = 'custom' or custom_multiplier is null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    "alter table meters drop constraint if exists meters_custom_unit, drop column if exists unit, drop column if exists custom_label, drop column if exists custom_multiplier",
  );
}
