// A checkout's quote: the discount, tax and total that its last write computed (what every view
// of it shows), and the total of the last view the buyer was given (shown_total_amount: by the
// create or update that answered with it, or by the buyer's own read). A confirm charges only
// that shown total: it re-derives the checkout under lock, and when the world moved under the
// buyer (a discount used up, deleted or changed, a price archived) it is refused instead.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("checkouts", (t) => {
    t.bigInteger("discount_amount").notNullable().defaultTo(0);
    t.bigInteger("tax_amount").notNullable().defaultTo(0);
    t.bigInteger("total_amount").notNullable().defaultTo(0);
    t.bigInteger("shown_total_amount").notNullable().defaultTo(0);
  });
  // Existing checkouts: the quote their views showed (amount less the discount's share; no tax).
  await knex.raw(`
    update checkouts c set
      discount_amount = coalesce(case
        when d.type = 'fixed' then least(c.amount, d.amount)
        when d.type = 'percentage' then least(c.amount, round(c.amount * d.basis_points / 10000.0))
      end, 0)
    from checkouts c2 left join discounts d on d.id = c2.discount_id
    where c2.id = c.id`);
  await knex.raw(`update checkouts set total_amount = amount - discount_amount + tax_amount`);
  await knex.raw(`update checkouts set shown_total_amount = total_amount`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("checkouts", (t) => {
    t.dropColumn("shown_total_amount");
    t.dropColumn("total_amount");
    t.dropColumn("tax_amount");
    t.dropColumn("discount_amount");
  });
}
