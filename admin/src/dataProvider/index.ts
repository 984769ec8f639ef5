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
import type { AdminResource } from "../../../generated/admin-resources";
import { call } from "./request";
import { itemPath, listPage, listQuery, MAX_LIMIT, pickBody, resourceOf, sorting } from "./query";
import { organizationMethods } from "./organization";
import { salesMethods } from "./sales";
import { usageMethods } from "./usage";
import { withProductBenefits } from "./products";
import { metricsMethods } from "./metrics";
import { seatMethods } from "./seats";
import { withOAuth2Clients } from "./oauth2Clients";

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

const crud: DataProvider = {
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
    return crud.getList(resource, {
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

/** CRUD plus the contract's other calls; screens take it as useDataProvider<BorealisDataProvider>(). */
export const dataProvider = {
  ...withOAuth2Clients(withProductBenefits(crud)),
  ...salesMethods,
  ...usageMethods,
  ...organizationMethods,
  ...metricsMethods,
  ...seatMethods,
};
export type BorealisDataProvider = typeof dataProvider;
