// The scopes a token can hold (the contract's AvailableScope enum), grouped by what they reach:
// one row per resource with its read and write scope, as Polar's token form offers them.
import { enumValues } from "../common/generic";
import { humanize } from "../common/format";

export const ALL_SCOPES: readonly string[] = enumValues("organization-access-tokens", "scopes") ?? [];

export interface ScopeGroup {
  name: string;
  label: string;
  read?: string;
  write?: string;
}

export const SCOPE_GROUPS: ScopeGroup[] = ALL_SCOPES.reduce<ScopeGroup[]>((groups, scope) => {
  const [name, access] = scope.split(":");
  let group = groups.find((g) => g.name === name);
  if (!group) {
    group = { name, label: humanize(name) };
    groups.push(group);
  }
  if (access === "read") group.read = scope;
  else group.write = scope;
  return groups;
}, []);

export const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(":read"));

/** How a token's scopes read in a table cell. */
export function scopesSummary(scopes: readonly string[]): string {
  if (ALL_SCOPES.every((s) => scopes.includes(s))) return "Everything";
  if (scopes.every((s) => s.endsWith(":read")))
    return READ_SCOPES.every((s) => scopes.includes(s)) ? "Read only" : `${scopes.length} read scopes`;
  return `${scopes.length} scopes`;
}
