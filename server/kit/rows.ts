// Row writes every repository makes the same way, and the number a one-value statement answers;
// the repository names its table. Apart from
// kit/db.ts, which imports the migrations: a repository that a migration reaches (the meters' and
// organizations' do) can use these without closing a circle.
import type { Knex } from "knex";

/** Inserts one row and answers it as stored. */
export async function insertReturning<T>(db: Knex, table: string, values: Record<string, unknown>): Promise<T> {
  const [row] = await db(table).insert(values).returning("*");
  return row as T;
}

/** Updates the row with this id and answers it as stored. */
export async function updateReturning<T>(db: Knex, table: string, id: string, patch: Record<string, unknown>): Promise<T> {
  const [row] = await db(table).where({ id }).update(patch).returning("*");
  return row as T;
}

/** Marks the row with this id deleted (deleted_at and modified_at now). */
export async function softDeleteRow(db: Knex, table: string, id: string): Promise<void> {
  const now = new Date();
  await db(table).where({ id }).update({ deleted_at: now, modified_at: now });
}

/** The rows a raw statement answers, with the row type its repository gives them (pg's result is untyped). */
export async function rowsOf<T>(statement: Knex.Raw): Promise<T[]> {
  const { rows }: { rows: T[] } = await statement;
  return rows;
}

/** The number a statement of one row and one column `v` answers (a count, an age), 0 when it answers no row or null. */
export async function numberOf(statement: Knex.Raw): Promise<number> {
  const { rows }: { rows: { v: unknown }[] } = await statement;
  return Number(rows[0]?.v ?? 0);
}
