// generated/admin-resources.ts: react-admin resource definitions derived from the contract (plain data).
import { HEADER, operationsOf, type OpenApiDoc, type Op, type Schema } from "./model.js";

const CREF = "#/components/schemas/";

interface Field {
  name: string;
  type: string;
  nullable: boolean;
  required: boolean;
  values?: string[];
  ref?: string;
}
interface Filter {
  name: string;
  type: string;
  required: boolean;
  values?: string[];
}

export function emitAdminResources(doc: OpenApiDoc): string {
  const schemas = doc.components.schemas;
  const deref = (s: Schema): Schema => {
    let cur = s;
    for (let i = 0; i < 20 && cur && typeof cur.$ref === "string" && cur.$ref.startsWith(CREF); i++)
      cur = schemas[cur.$ref.slice(CREF.length)];
    return cur ?? {};
  };
  const enumValues = (s: Schema): string[] | undefined => {
    const d = deref(s);
    if (Array.isArray(d.enum)) return d.enum.filter((v: unknown) => typeof v === "string");
    if (typeof d.const === "string") return [d.const];
    return undefined;
  };
  /** a compact type name for a schema: string, integer, number, boolean, datetime, date, enum, object, array, union */
  const typeOf = (s0: Schema): { type: string; nullable: boolean; values?: string[]; ref?: string } => {
    let s = s0 ?? {};
    let nullable = false;
    const alts: Schema[] | undefined = s.anyOf ?? s.oneOf;
    if (alts) {
      const nonNull = alts.filter((a) => a.type !== "null");
      nullable = nonNull.length !== alts.length;
      if (nonNull.length === 1) s = nonNull[0];
      else if (nonNull.length > 1) return { type: "union", nullable };
    }
    const ref = typeof s.$ref === "string" && s.$ref.startsWith(CREF) ? s.$ref.slice(CREF.length) : undefined;
    const d = deref(s);
    let t = d.type;
    if (Array.isArray(t)) {
      nullable = nullable || t.includes("null");
      t = t.filter((x: string) => x !== "null")[0];
    }
    const values = enumValues(d);
    if (values && (t === "string" || t === undefined)) return { type: "enum", nullable, values, ...(ref ? { ref } : {}) };
    if (t === "string" && d.format === "date-time") return { type: "datetime", nullable };
    if (t === "string" && d.format === "date") return { type: "date", nullable };
    if (t === "array") {
      const it = typeOf(d.items ?? {});
      return { type: `${it.type}[]`, nullable, ...(it.values ? { values: it.values } : {}), ...(it.ref ? { ref: it.ref } : {}) };
    }
    if (typeof t === "string") return { type: t, nullable, ...(ref && t === "object" ? { ref } : {}) };
    if (d.oneOf || d.anyOf) return { type: "union", nullable, ...(ref ? { ref } : {}) };
    return { type: "unknown", nullable };
  };
  const objectFields = (s: Schema): Field[] => {
    const d = deref(s);
    const members: Schema[] = d.oneOf ?? d.anyOf ?? [d];
    const fields: Field[] = [];
    const seen = new Set<string>();
    for (const m0 of members) {
      const m = deref(m0);
      for (const [name, ps] of Object.entries(m.properties ?? {})) {
        const t = typeOf(ps);
        if (seen.has(name)) {
          // a union's variants each fix their own value of a discriminator (`type`): list them all
          const prev = fields.find((f) => f.name === name);
          if (prev?.values && t.values) prev.values = [...new Set([...prev.values, ...t.values])];
          continue;
        }
        seen.add(name);
        // in a union, required only when every variant requires it (a discriminator such as `type`)
        const required = members.every((v) => (deref(v).required ?? []).includes(name));
        fields.push({
          name,
          type: t.type,
          nullable: t.nullable,
          required,
          ...(t.values ? { values: t.values } : {}),
          ...(t.ref ? { ref: t.ref } : {}),
        });
      }
    }
    return fields;
  };

  const ops = operationsOf(doc);
  const find = (method: string, path: string): Op | undefined =>
    ops.find((o) => o.method === method && o.path === path && o.security === "access_token");
  const bodyFields = (op: Op | undefined): Field[] => {
    const s = op?.raw.requestBody?.content?.["application/json"]?.schema;
    return s ? objectFields(s) : [];
  };
  const listOps = ops.filter((op) => {
    if (op.security !== "access_token" || op.method !== "get") return false;
    const s = op.successSchema;
    const listName = s?.$ref?.startsWith(CREF) ? s.$ref.slice(CREF.length) : "";
    // a collection (no path parameter) or a collection under one parent item (`/v1/benefits/{id}/grants`)
    return listName.startsWith("ListResource") && (op.pathParams.length === 0 || /^\/v1\/[^{}]+\/\{[^}]+\}\/[^{}/]+\/?$/.test(op.path));
  });
  const nameOf = (path: string) =>
    path
      .replace(/^\/v1\//, "")
      .replace(/\/$/, "")
      .replace(/\/\{[^}]+\}/g, "")
      .replace(/\//g, "-");
  const names = listOps.map((op) => nameOf(op.path));
  /** the resource a `<thing>_id` field or filter points at: `customer_id` → customers, `endpoint_id` → webhooks-endpoints */
  const referenceOf = (field: string): string | undefined => {
    const m = /^(.+)_id$/.exec(field);
    if (!m || m[1] === "organization" || m[1] === "external_customer") return undefined;
    const plural = `${m[1].replace(/_/g, "-")}s`;
    return names.find((n) => n === plural) ?? names.find((n) => n.endsWith(`-${plural}`));
  };
  const withReference = <T extends { name: string }>(f: T): T & { reference?: string } => {
    const ref = referenceOf(f.name);
    return ref ? { ...f, reference: ref } : f;
  };
  const resources: string[] = [];
  for (const op of listOps) {
    const s = op.successSchema;
    const listName = s.$ref.slice(CREF.length);
    const list = schemas[listName];
    const itemSchema = list?.properties?.items?.items;
    const name = nameOf(op.path);
    const parentMatch = /^(\/v1\/[^{}]+)\/\{([^}]+)\}\//.exec(op.path);
    const parent = parentMatch
      ? {
          resource: nameOf(parentMatch[1]),
          param: parentMatch[2],
          filter: `${nameOf(parentMatch[1]).replace(/s$/, "").replace(/-/g, "_")}_id`,
        }
      : null;
    const base = op.path.endsWith("/") ? op.path : op.path + "/";
    const item = parent ? null : `${base}{id}`;
    const sortParam = op.queryParams.find((p) => p.name === "sorting");
    const sortValues = sortParam ? (enumValues(sortParam.schema?.items ?? {}) ?? []) : [];
    const sortFields = [...new Set(sortValues.map((v) => v.replace(/^-/, "")))];
    const filters: Filter[] = op.queryParams
      .filter((p) => !["page", "limit", "sorting"].includes(p.name))
      .map((p) => {
        const t = p.style === "deepObject" ? { type: "metadata", nullable: false } : typeOf(p.schema);
        return withReference({
          name: p.name,
          type: t.type,
          required: !!p.required,
          ...("values" in t && t.values ? { values: t.values } : {}),
        });
      });
    const itemRef = itemSchema?.$ref?.startsWith(CREF) ? itemSchema.$ref.slice(CREF.length) : null;
    const get = item ? find("get", item) : undefined;
    const create = parent ? undefined : find("post", op.path);
    const update = item ? find("patch", item) : undefined;
    const del = item ? find("delete", item) : undefined;
    const crud = new Set([op.id, get?.id, create?.id, update?.id, del?.id]);
    // the other operations on the collection (`/v1/subscriptions/export`) or on one item (`/v1/orders/{id}/invoice`)
    const actions = ops
      .filter((o) => o.security === "access_token" && !crud.has(o.id))
      .filter(
        (o) =>
          (item && o.path.startsWith(`${item}/`)) ||
          (!parent && o.path.startsWith(base) && o.pathParams.length === 0 && o.path !== op.path),
      )
      .map((o) => ({ operation: o.id, method: o.method, path: o.path }));
    const idFilter = filters.find((f) => f.name === "id" && f.type.endsWith("[]"))?.name ?? null;
    const r = {
      name,
      label: String(op.raw.summary ?? name).replace(/^List /, ""),
      tag: op.tag,
      path: op.path,
      itemPath: item,
      parent,
      schema: itemRef,
      listOperation: op.id,
      getOperation: get?.id ?? null,
      createOperation: create?.id ?? null,
      updateOperation: update?.id ?? null,
      deleteOperation: del?.id ?? null,
      actions,
      scopes: op.scopes,
      sortFields,
      idFilter,
      queryFilter: filters.some((f) => f.name === "query") ? "query" : null,
      filters,
      fields: itemSchema ? objectFields(itemSchema).map(withReference) : [],
      createFields: bodyFields(create).map(withReference),
      updateFields: bodyFields(update).map(withReference),
    };
    resources.push(`  ${JSON.stringify(r)},`);
  }

  // The named string enums, for pickers whose values no resource field carries (an OAuth2 client's scopes).
  const enums = Object.entries(schemas)
    .filter(([, s]) => s.type === "string" && Array.isArray(s.enum))
    .map(([name, s]) => `  ${JSON.stringify(name)}: ${JSON.stringify(s.enum)},`);

  return `${HEADER}
// One entry per merchant list operation (GET collection path answering a ListResource, or a
// collection under one parent item such as /v1/benefits/{id}/grants).
// Plain data for the admin UI (react-admin resources); no React import.
import type { OperationId } from "./handlers.js";

export interface AdminField {
  name: string;
  /** string | integer | number | boolean | datetime | date | enum | object | union | unknown, with [] for arrays */
  type: string;
  nullable: boolean;
  required: boolean;
  values?: readonly string[];
  /** the component schema behind an object / enum / array-of field */
  ref?: string;
  /** the resource a \`<thing>_id\` field points at */
  reference?: string;
}
export interface AdminFilter {
  name: string;
  /** as AdminField.type, plus "metadata" for deepObject metadata filters */
  type: string;
  required: boolean;
  values?: readonly string[];
  /** the resource whose ids the filter takes */
  reference?: string;
}
/** An operation on the collection or on one item beyond list / get / create / update / delete. */
export interface AdminAction {
  operation: OperationId;
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
}
export interface AdminResource {
  name: string;
  label: string;
  tag: string;
  /** the list path; a sub-collection's has its parent's \`{param}\` */
  path: string;
  /** one record's path (null for a sub-collection, whose records are read through it) */
  itemPath: string | null;
  /** a sub-collection (\`/v1/benefits/{id}/grants\`): its parent resource, the path parameter, and the filter name screens pass the parent id as */
  parent: { resource: string; param: string; filter: string } | null;
  schema: string | null;
  listOperation: OperationId;
  getOperation: OperationId | null;
  createOperation: OperationId | null;
  updateOperation: OperationId | null;
  deleteOperation: OperationId | null;
  actions: readonly AdminAction[];
  scopes: readonly string[];
  /** the values \`sorting\` takes (each also with a \`-\` prefix) */
  sortFields: readonly string[];
  /** the filter that takes several ids at once: getMany is one list call through it */
  idFilter: string | null;
  /** the free-text search filter */
  queryFilter: string | null;
  filters: readonly AdminFilter[];
  /** the read model's fields */
  fields: readonly AdminField[];
  /** the create / update bodies' fields (every variant's, for a union) */
  createFields: readonly AdminField[];
  updateFields: readonly AdminField[];
}

export const adminResources: readonly AdminResource[] = [
${resources.join("\n")}
];

export const adminResourcesByName: Readonly<Record<string, AdminResource>> = Object.fromEntries(
  adminResources.map((r) => [r.name, r]),
);

/** The contract's named string enums (component schemas), by name. */
export const adminEnums: Readonly<Record<string, readonly string[]>> = {
${enums.join("\n")}
};
`;
}
