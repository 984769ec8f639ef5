// Where better-auth's records live in our database: plural snake_case tables and columns, like
// every other table (server/migrations/0020_auth.ts creates them). better-auth's organization is
// our `organizations` table. `renamed()` maps a plugin's `schema` models and fields to our names.

/** better-auth model → our table. Models not listed get their snake_case name plus "s". */
const TABLES: Record<string, string> = {
  jwks: "jwks",
};

/** Columns whose name is not the snake_case of the field. */
const COLUMNS: Record<string, Record<string, string>> = {
  organization: { logo: "avatar_url" },
  oauthClient: { requirePKCE: "require_pkce" },
};

/** The models better-auth itself owns: plugins may add fields to them but not rename them. */
export const CORE_MODELS = new Set(["user", "session", "account", "verification", "rateLimit"]);

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function tableName(model: string): string {
  return TABLES[model] ?? `${snakeCase(model)}s`;
}

export function columnName(model: string, field: string): string {
  return COLUMNS[model]?.[field] ?? snakeCase(field);
}

export interface ModelNaming {
  modelName?: string;
  fields: Record<string, string>;
}

/** Our names for every model a plugin (or the core) declares. */
export function renamed(schema: Record<string, { fields: Record<string, unknown> }> | undefined): Record<string, ModelNaming> {
  const out: Record<string, ModelNaming> = {};
  for (const [model, def] of Object.entries(schema ?? {})) {
    const fields: Record<string, string> = {};
    for (const field of Object.keys(def.fields)) fields[field] = columnName(model, field);
    out[model] = CORE_MODELS.has(model) ? { fields } : { modelName: tableName(model), fields };
  }
  return out;
}
