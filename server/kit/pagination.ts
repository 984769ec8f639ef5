// The one implementation of list paging, sorting and the shared filters (repeated ids,
// `metadata[key]=value`). Every list endpoint goes through `listPage`.
import type { Knex } from "knex";
import { asList } from "./ids.js";

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

export interface Pagination {
  total_count: number;
  max_page: number;
}
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** Sort key (without `-`) → SQL expression to order by. */
export type SortMap = Record<string, string | Knex.Raw>;

export interface ListQuery {
  page?: number;
  limit?: number;
  sorting?: string[] | string | null;
}

export function applySorting(
  q: Knex.QueryBuilder,
  sorting: string[] | string | null | undefined,
  map: SortMap,
  defaults: string[],
  tiebreaker: string,
): Knex.QueryBuilder {
  const keys = asList(sorting).length ? asList(sorting) : defaults;
  for (const key of keys) {
    const desc = key.startsWith("-");
    const expr = map[desc ? key.slice(1) : key];
    if (expr === undefined) continue; // the contract's enum already rejects unknown keys
    const dir = desc ? "desc" : "asc";
    if (typeof expr === "string") q.orderBy(expr, dir, desc ? "last" : "first");
    else q.orderByRaw(`${expr.toQuery()} ${dir} nulls ${desc ? "last" : "first"}`);
  }
  return q.orderBy(tiebreaker, "asc");
}

/** `metadata[key]=value` (repeatable per key): every key must match one of its values. */
export function applyMetadataFilter(
  q: Knex.QueryBuilder,
  column: string,
  metadata: Record<string, unknown> | null | undefined,
): Knex.QueryBuilder {
  if (!metadata || typeof metadata !== "object") return q;
  for (const [key, value] of Object.entries(metadata)) {
    const values = asList(value as unknown).map((v) => String(v));
    if (values.length) q.whereRaw(`(${column} ->> ?) = any(?::text[])`, [key, values]);
  }
  return q;
}

/**
 * One page whose rows carry the total count (`count(*) over ()` as `total_count`, selected by the
 * caller), so page and count are one round trip: `fetch` runs the paged query. The count is asked
 * apart only when a page past the first comes back empty (an empty first page counts 0).
 */
export async function listCountedPage<Row extends { total_count: string | number }, Item>(
  q: Knex.QueryBuilder,
  params: ListQuery,
  fetch: (paged: Knex.QueryBuilder) => Promise<Row[]>,
  toItems: (rows: Row[]) => Promise<Item[]> | Item[],
): Promise<Page<Item>> {
  const page = params.page ?? 1;
  const limit = Math.min(params.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = (page - 1) * limit;
  const rows = await fetch(q.clone().limit(limit).offset(offset));
  let total = rows.length ? Number(rows[0].total_count) : 0;
  if (!rows.length && offset > 0) {
    const count = (await q.clone().clearSelect().clearOrder().count({ n: "*" }).first()) as { n: number | string } | undefined;
    total = Number(count?.n ?? 0);
  }
  return {
    items: await toItems(rows),
    pagination: { total_count: total, max_page: Math.ceil(total / limit) },
  };
}

/** Runs the filtered query for one page and its total count; `toItem` maps rows to wire items. */
export async function listPage<Row, Item>(
  q: Knex.QueryBuilder,
  params: ListQuery,
  toItems: (rows: Row[]) => Promise<Item[]> | Item[],
): Promise<Page<Item>> {
  const page = params.page ?? 1;
  const limit = Math.min(params.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const [rows, counts] = await Promise.all([
    q
      .clone()
      .limit(limit)
      .offset((page - 1) * limit),
    q.clone().clearSelect().clearOrder().count({ n: "*" }).limit(1),
  ]);
  const total = Number(counts[0]?.n ?? 0);
  return {
    items: await toItems(rows as Row[]),
    pagination: { total_count: total, max_page: Math.ceil(total / limit) },
  };
}
