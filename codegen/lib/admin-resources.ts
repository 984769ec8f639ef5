// generated/admin-resources.ts: react-admin resource definitions derived from the contract (plain data).
import { HEADER, operationsOf, type OpenApiDoc, type Op, type Schema } from "./model.js";

const CREF = "#/components/schemas/";

interface Field { name: string; type: string; nullable: boolean; required: boolean; values?: string[]; ref?: string }
interface Filter { name: string; type: string; required: boolean; values?: string[] }

export function emitAdminResources(doc: OpenApiDoc): string {
  const schemas = doc.components.schemas;
  const deref = (s: Schema): Schema => {
    let cur = s;
    for (let i = 0; i < 20 && cur && typeof cur.$ref === "string" && cur.$ref.startsWith(CREF); i++) cur = schemas[cur.$ref.slice(CREF.length)];
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
        if (seen.has(name)) continue;
        seen.add(name);
        const t = typeOf(ps);
        fields.push({ name, type: t.type, nullable: t.nullable, required: (m.required ?? []).includes(name), ...(t.values ? { values: t.values } : {}), ...(t.ref ? { ref: t.ref } : {}) });
      }
    }
    return fields;
  };

  const ops = operationsOf(doc);
  const find = (method: string, path: string): Op | undefined =>
    ops.find((o) => o.method === method && o.path === path && o.security === "access_token");
  const resources: string[] = [];
  for (const op of ops) {
    if (op.security !== "access_token" || op.method !== "get" || op.path.includes("{")) continue;
    const s = op.successSchema;
    const listName = s?.$ref?.startsWith(CREF) ? s.$ref.slice(CREF.length) : "";
    if (!listName.startsWith("ListResource")) continue;
    const list = schemas[listName];
    const itemSchema = list?.properties?.items?.items;
    const base = op.path.endsWith("/") ? op.path : op.path + "/";
    const item = `${base}{id}`;
    const name = op.path.replace(/^\/v1\//, "").replace(/\/$/, "").replace(/\//g, "-");
    const sortParam = op.queryParams.find((p) => p.name === "sorting");
    const sortValues = sortParam ? enumValues(sortParam.schema?.items ?? {}) ?? [] : [];
    const sortFields = [...new Set(sortValues.map((v) => v.replace(/^-/, "")))];
    const filters: Filter[] = op.queryParams
      .filter((p) => !["page", "limit", "sorting"].includes(p.name))
      .map((p) => {
        const t = p.style === "deepObject" ? { type: "metadata", nullable: false } : typeOf(p.schema);
        return { name: p.name, type: t.type, required: !!p.required, ...("values" in t && t.values ? { values: t.values } : {}) };
      });
    const itemRef = itemSchema?.$ref?.startsWith(CREF) ? itemSchema.$ref.slice(CREF.length) : null;
    const r = {
      name,
      label: String(op.raw.summary ?? name).replace(/^List /, ""),
      tag: op.tag,
      path: op.path,
      itemPath: item,
      schema: itemRef,
      listOperation: op.id,
      getOperation: find("get", item)?.id ?? null,
      createOperation: find("post", op.path)?.id ?? null,
      updateOperation: find("patch", item)?.id ?? null,
      deleteOperation: find("delete", item)?.id ?? null,
      scopes: op.scopes,
      sortFields,
      filters,
      fields: itemSchema ? objectFields(itemSchema) : [],
    };
    resources.push(`  ${JSON.stringify(r)},`);
  }

  return `${HEADER}
// One entry per merchant list operation (GET collection path answering a ListResource).
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
}
export interface AdminFilter {
  name: string;
  /** as AdminField.type, plus "metadata" for deepObject metadata filters */
  type: string;
  required: boolean;
  values?: readonly string[];
}
export interface AdminResource {
  name: string;
  label: string;
  tag: string;
  path: string;
  itemPath: string;
  schema: string | null;
  listOperation: OperationId;
  getOperation: OperationId | null;
  createOperation: OperationId | null;
  updateOperation: OperationId | null;
  deleteOperation: OperationId | null;
  scopes: readonly string[];
  sortFields: readonly string[];
  filters: readonly AdminFilter[];
  fields: readonly AdminField[];
}

export const adminResources: readonly AdminResource[] = [
${resources.join("\n")}
];

export const adminResourcesByName: Readonly<Record<string, AdminResource>> = Object.fromEntries(
  adminResources.map((r) => [r.name, r]),
);
`;
}
