// Database access: one knex instance per process, migrations from a static list, and the
// transaction helper every state change goes through.
import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { migrations } from "../migrations/index.js";

// int8 (count(*), bigserial) as JS numbers: our counts and sizes stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric stays a string (metered unit amounts keep their 12 decimals).

export type Db = Knex;
export type Tx = Knex.Transaction;

/**
 * A value for a jsonb column of a typed insert or update: its JSON text as one bound parameter
 * (node-pg would send a JS array as a Postgres array), typed as the column's value.
 */
export function jsonb<T>(db: Knex, value: T): Knex.Raw<T> {
  return db.raw<T>("?", [JSON.stringify(value)]);
}

/** A patch of a row's columns, each a value or raw SQL (a jsonb value): what a typed update takes. */
export type RowPatch<Row> = { [K in keyof Row]?: Row[K] | Knex.Raw<Row[K]> };

const connectionUrls = new WeakMap<Knex, string>();

export function createKnex(url: string, opts: { pool?: { min: number; max: number } } = {}): Knex {
  const knex = knexFactory({
    client: "pg",
    connection: url,
    pool: opts.pool ?? { min: 0, max: 10 },
  });
  connectionUrls.set(knex, url);
  return knex;
}

/** The connection string a knex instance was made from (better-auth opens its own pool with it). */
export function connectionUrl(knex: Knex): string {
  const url = connectionUrls.get(knex);
  if (!url) throw new Error("this knex instance was not made by createKnex");
  return url;
}

type PgConnection = { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };
type PooledClient = { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };

/**
 * Runs a named prepared statement (`$1`-style text) and answers its rows, on a connection from
 * knex's client without the query builder: no rewriting of `?` bindings in the text on every
 * call (for the hot reads that is a good part of a request's CPU). In a transaction, the
 * transaction's client hands out the transaction's own connection and keeps it on release.
 */
export async function preparedRows<T>(db: Knex, name: string, text: string, values: unknown[]): Promise<T[]> {
  if (db.isTransaction && (db as Knex.Transaction).isCompleted()) throw new Error(`${name}: the transaction has already ended`);
  const client = db.client as PooledClient;
  const conn = await client.acquireConnection();
  try {
    return (await conn.query({ name, text, values })).rows as T[];
  } finally {
    await client.releaseConnection(conn);
  }
}

/** One round trip that touches no table: the health check's, and a transaction's "can it still commit?". */
export async function ping(db: Knex): Promise<void> {
  await db.raw("select 1");
}

/** The time zone names PostgreSQL knows (its tzdata catalog). */
export async function timeZoneNames(db: Knex): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { name: string }[] }>("select name from pg_timezone_names");
  return rows.map((r) => r.name);
}

/** Migrations are listed in server/migrations/index.ts so that no file-system globbing is needed. */
export const migrationSource: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource });
}
