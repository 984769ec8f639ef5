// The console's data provider: react-admin's calls in the contract's terms, driven by
// generated/admin-resources.ts: `page` / `limit` (≤ 100), lists of `items` + `pagination`,
// `sorting` (`-field` descending), filters as the operation's query parameters, getMany through
// the filter that takes several ids, and bodies with only the fields an operation accepts. No
// business rule lives here: the server decides, this only speaks its protocol.
import type {
  CreateResult,
  DataProvider,
  DeleteResult,
  GetListResult,
  GetManyResult,
  Identifier,
  RaRecord,
  UpdateResult,
} from "react-admin";
import { adminResourcesByName, type AdminResource } from "../../../generated/admin-resources";
import { call, type Query } from "./request";

export const MAX_LIMIT = 100;

interface ListPage<T> {
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

async function listPage<T>(r: AdminResource, path: Record<string, string>, query: Query): Promise<ListPage<T>> {
  return call<ListPage<T>>("GET", r.path, { path, query });
}

/**
 * Keeps only the body fields an operation accepts; for an update, only those that changed, and
 * those the body requires (a union's discriminator: a benefit's or a custom field's `type`).
 */
function pickBody(
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

function itemPath(r: AdminResource): string {
  if (!r.itemPath) throw new Error(`${r.name} has no single-record path`);
  return r.itemPath;
}

async function getOne<T extends RaRecord>(r: AdminResource, id: Identifier): Promise<T> {
  if (r.getOperation) return call<T>("GET", itemPath(r), { path: { id: String(id) } });
  // no GET of one record in the contract (refunds): the list filtered by that id
  if (r.idFilter) {
    const res = await listPage<T>(r, {}, { [r.idFilter]: [String(id)], limit: 1 });
    const found = res.items[0];
    if (found) return found;
  }
  throw apiErrorNotFound(r, id);
}

function apiErrorNotFound(r: AdminResource, id: Identifier): Error {
  return Object.assign(new Error(`ResourceNotFound: no ${r.label.toLowerCase()} ${id}`), { status: 404 });
}

export const dataProvider: DataProvider = {
  async getList<R extends RaRecord = RaRecord>(
    resource: string,
    params: Parameters<DataProvider["getList"]>[1],
  ): Promise<GetListResult<R>> {
    const r = resourceOf(resource);
    const { path, query } = listQuery(r, params.filter ?? {});
    const page = params.pagination?.page ?? 1;
    const perPage = params.pagination?.perPage ?? 10;
    const sort = sorting(r, params.sort);
    if (perPage <= MAX_LIMIT) {
      const res = await listPage<R>(r, path, { ...query, sorting: sort, page, limit: perPage });
      return { data: res.items, total: res.pagination.total_count };
    }
    // react-admin asks for more than a page can hold (exporters ask for 1,000): page through
    const start = (page - 1) * perPage;
    const data: R[] = [];
    let total = 0;
    for (let p = Math.floor(start / MAX_LIMIT) + 1; data.length < perPage; p++) {
      const res = await listPage<R>(r, path, { ...query, sorting: sort, page: p, limit: MAX_LIMIT });
      total = res.pagination.total_count;
      const skip = p === Math.floor(start / MAX_LIMIT) + 1 ? start % MAX_LIMIT : 0;
      data.push(...res.items.slice(skip));
      if (p >= res.pagination.max_page || res.items.length < MAX_LIMIT) break;
    }
    return { data: data.slice(0, perPage), total };
  },

  async getOne(resource, params) {
    return { data: await getOne(resourceOf(resource), params.id) };
  },

  async getMany<R extends RaRecord = RaRecord>(
    resource: string,
    params: Parameters<DataProvider["getMany"]>[1],
  ): Promise<GetManyResult<R>> {
    const r = resourceOf(resource);
    const ids = [...new Set(params.ids.map(String))];
    if (!ids.length) return { data: [] };
    if (r.idFilter) {
      const data: R[] = [];
      for (let i = 0; i < ids.length; i += MAX_LIMIT) {
        const chunk = ids.slice(i, i + MAX_LIMIT);
        const res = await listPage<R>(r, {}, { [r.idFilter]: chunk, limit: chunk.length });
        data.push(...res.items);
      }
      return { data };
    }
    const settled = await Promise.allSettled(ids.map((id) => getOne<R>(r, id)));
    return { data: settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : [])) };
  },

  async getManyReference(resource, params) {
    const r = resourceOf(resource);
    // a target the list cannot filter by would list every record: refuse instead
    if (params.target !== r.parent?.filter && !r.filters.some((f) => f.name === params.target)) {
      throw new Error(`${r.label} cannot be listed by ${params.target}`);
    }
    return dataProvider.getList(resource, {
      pagination: params.pagination,
      sort: params.sort,
      filter: { ...params.filter, [params.target]: params.id },
      meta: params.meta,
    });
  },

  async create<R extends RaRecord = RaRecord>(resource: string, params: Parameters<DataProvider["create"]>[1]): Promise<CreateResult<R>> {
    const r = resourceOf(resource);
    if (!r.createOperation) throw new Error(`${r.label} cannot be created`);
    const body = r.createFields.length ? pickBody(r.createFields, params.data) : params.data;
    return { data: await call<R>("POST", r.path, { body }) };
  },

  async update<R extends RaRecord = RaRecord>(resource: string, params: Parameters<DataProvider["update"]>[1]): Promise<UpdateResult<R>> {
    const r = resourceOf(resource);
    if (!r.updateOperation) throw new Error(`${r.label} cannot be edited`);
    const body = pickBody(r.updateFields, params.data, params.previousData);
    return { data: await call<R>("PATCH", itemPath(r), { path: { id: String(params.id) }, body }) };
  },

  async updateMany(resource, params) {
    const r = resourceOf(resource);
    if (!r.updateOperation) throw new Error(`${r.label} cannot be edited`);
    const body = pickBody(r.updateFields, params.data);
    await Promise.all(params.ids.map((id) => call("PATCH", itemPath(r), { path: { id: String(id) }, body })));
    return { data: params.ids };
  },

  async delete<R extends RaRecord = RaRecord>(resource: string, params: Parameters<DataProvider["delete"]>[1]): Promise<DeleteResult<R>> {
    const r = resourceOf(resource);
    if (!r.deleteOperation) throw new Error(`${r.label} cannot be deleted`);
    const record = await getOne<R>(r, params.id);
    await call("DELETE", itemPath(r), { path: { id: String(params.id) } });
    return { data: record };
  },

  async deleteMany(resource, params) {
    const r = resourceOf(resource);
    if (!r.deleteOperation) throw new Error(`${r.label} cannot be deleted`);
    await Promise.all(params.ids.map((id) => call("DELETE", itemPath(r), { path: { id: String(id) } })));
    return { data: params.ids };
  },
};
