// The organization's OAuth2 applications as the resource "oauth2-clients": listed by GET
// /v1/oauth2/, registered and managed under /v1/oauth2/register (RFC 7591 / 7592), identified
// by their client_id. A refused registration (RFC 7591's {error, error_description}) names the
// field it concerns, so the form marks that field.
import {
  HttpError,
  type CreateParams,
  type CreateResult,
  type DataProvider,
  type DeleteParams,
  type DeleteResult,
  type GetListParams,
  type GetListResult,
  type GetOneParams,
  type GetOneResult,
  type UpdateParams,
  type UpdateResult,
} from "react-admin";
import type { OAuth2ClientRegistration } from "../api";
import { call } from "./request";

export const OAUTH2_CLIENTS = "oauth2-clients";

/** What the form edits: the metadata's fields, the scopes as a list. */
const FIELDS = ["client_name", "redirect_uris", "client_uri", "logo_uri", "tos_uri", "policy_uri"] as const;

export type OAuth2Client = OAuth2ClientRegistration & { id: string; scopes: string[] };

function asRecord(c: OAuth2ClientRegistration): OAuth2Client {
  const scope = typeof c.scope === "string" ? c.scope : "";
  return Object.assign({}, c, { id: c.client_id, scopes: scope.split(/\s+/).filter(Boolean) });
}

/** The metadata to send: the form's fields (empty links left out) and `scope` from the chosen scopes. */
function metadata(data: Partial<OAuth2Client>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of FIELDS) {
    const value = data[key];
    if (Array.isArray(value)) body[key] = value.map((v) => String(v).trim()).filter(Boolean);
    else if (typeof value === "string" && value.trim()) body[key] = value.trim();
  }
  if (Array.isArray(data.scopes)) body.scope = data.scopes.join(" ");
  return body;
}

/** The form field an OAuth2 refusal is about: a redirect URI's, or the field its description starts with. */
function fieldOf(body: { error?: unknown; error_description?: unknown }): string {
  if (body.error === "invalid_redirect_uri") return "redirect_uris";
  if (body.error === "invalid_scope") return "scopes";
  const named = /^([a-z_]+): /.exec(String(body.error_description ?? ""))?.[1];
  if (named === "scope") return "scopes";
  return named && (FIELDS as readonly string[]).includes(named) ? named : "client_name";
}

async function send<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const body = err instanceof HttpError ? (err.body as { error?: unknown; error_description?: unknown } | null) : null;
    if (!(err instanceof HttpError) || err.status !== 400 || typeof body?.error_description !== "string") throw err;
    const message = String(body.error_description).replace(/^[a-z_]+: /, "");
    throw new HttpError(err.message, 400, Object.assign({}, body, { errors: { [fieldOf(body)]: message } }));
  }
}

const one = (id: string) => call<OAuth2ClientRegistration>("GET", "/v1/oauth2/register/{client_id}", { path: { client_id: id } });

const oauth2ClientsCrud = {
  async getList(_resource: string, params: GetListParams): Promise<GetListResult> {
    const query = { page: params.pagination?.page ?? 1, limit: Math.min(params.pagination?.perPage ?? 10, 100) };
    const page = await call<{ items: OAuth2ClientRegistration[]; pagination: { total_count: number } }>("GET", "/v1/oauth2/", {
      query,
    });
    return { data: page.items.map(asRecord), total: page.pagination.total_count };
  },
  async getOne(_resource: string, params: GetOneParams): Promise<GetOneResult> {
    return { data: asRecord(await one(String(params.id))) };
  },
  async create(_resource: string, params: CreateParams): Promise<CreateResult> {
    const body = metadata(params.data);
    return { data: asRecord(await send(() => call<OAuth2ClientRegistration>("POST", "/v1/oauth2/register", { body }))) };
  },
  async update(_resource: string, params: UpdateParams): Promise<UpdateResult> {
    const path = { client_id: String(params.id) };
    const body = metadata(params.data);
    return { data: asRecord(await send(() => call<OAuth2ClientRegistration>("PUT", "/v1/oauth2/register/{client_id}", { path, body }))) };
  },
  async delete(_resource: string, params: DeleteParams): Promise<DeleteResult> {
    const record = asRecord(await one(String(params.id)));
    await call("DELETE", "/v1/oauth2/register/{client_id}", { path: { client_id: String(params.id) } });
    return { data: record };
  },
};

/** CRUD with the OAuth2 applications' calls in place of the contract-driven ones for that resource. */
export function withOAuth2Clients(crud: DataProvider): DataProvider {
  const mine = (resource: string) => resource === OAUTH2_CLIENTS;
  return Object.assign({}, crud, {
    async getList(resource, params) {
      return mine(resource) ? oauth2ClientsCrud.getList(resource, params) : crud.getList(resource, params);
    },
    async getOne(resource, params) {
      return mine(resource) ? oauth2ClientsCrud.getOne(resource, params) : crud.getOne(resource, params);
    },
    async create(resource, params) {
      return mine(resource) ? oauth2ClientsCrud.create(resource, params) : crud.create(resource, params);
    },
    async update(resource, params) {
      return mine(resource) ? oauth2ClientsCrud.update(resource, params) : crud.update(resource, params);
    },
    async delete(resource, params) {
      return mine(resource) ? oauth2ClientsCrud.delete(resource, params) : crud.delete(resource, params);
    },
  } satisfies Pick<DataProvider, "getList" | "getOne" | "create" | "update" | "delete">);
}
