// How react-admin's list parameters become the contract's query: the resource's metadata, its
// filters, its sort fields, and the bodies an operation accepts.
import { adminResourcesByName, type AdminResource } from "../../../generated/admin-resources";
import { call, type Query } from "./request";

export const MAX_LIMIT = 100;

export interface ListPage<T> {
  items: T[];
  pagination: { total_count: number; max_page: number };
}

export function resourceOf(name: string): AdminResource {
  const r = adminResourcesByName[name];
  if (!r) throw new Error(`Unknown resource "${name}"`);
  return r;
}

/** The list call's query for react-admin's filter values: only the operation's parameters pass. */
export function listQuery(r: AdminResource, filter: Record<string, unknown>): { path: Record<string, string>; query: Query } {
  const query: Query = {};
  const path: Record<string, string> = {};
  const known = new Set(r.filters.map((f) => f.name));
  for (const [key, value] of Object.entries(filter)) {
    if (r.parent && key === r.parent.filter) path[r.parent.param] = String(value);
    else if (key === "q" && r.queryFilter) query[r.queryFilter] = value;
    else if (key === "metadata" && typeof value === "object" && value) query.metadata = value;
    else if (known.has(key)) query[key] = value;
  }
  return { path, query };
}

export function sorting(r: AdminResource, sort?: { field: string; order: string }): string | undefined {
  if (!sort || !r.sortFields.includes(sort.field)) return undefined;
  return sort.order === "DESC" ? `-${sort.field}` : sort.field;
}

export async function listPage<T>(r: AdminResource, path: Record<string, string>, query: Query): Promise<ListPage<T>> {
  return call<ListPage<T>>("GET", r.path, { path, query });
}

/**
 * Keeps only the body fields an operation accepts; for an update, only those that changed, and
 * those the body requires (a union's discriminator: a benefit's or a custom field's `type`).
 */
export function pickBody(
  fields: readonly { name: string; required: boolean }[],
  data: Record<string, unknown>,
  previous?: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { name, required } of fields) {
    if (!(name in data) || data[name] === undefined) continue;
    if (previous && !required && JSON.stringify(previous[name]) === JSON.stringify(data[name])) continue;
    body[name] = data[name];
  }
  return body;
}

export function itemPath(r: AdminResource): string {
  if (!r.itemPath) throw new Error(`${r.name} has no single-record path`);
  return r.itemPath;
}
