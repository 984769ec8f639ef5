// Organization access tokens through the API (as Polar has them): made by a member of the
// organization or by another token of it, never with a scope the maker lacks, and changed or
// revoked only by a caller holding every scope the token holds; the token is answered once and
// stored hashed; revoking or re-scoping one reaches every API process at once (verifier.ts).
// `make token` mints them from the command line.
import type { Knex } from "knex";
import type { components, operations } from "../../generated/types.js";
import { ALL_SCOPES, hashToken, randomToken, type OrganizationCaller } from "../kit/auth.js";
import { invalid, NotPermitted, ResourceNotFound } from "../kit/errors.js";
import { asList } from "../kit/ids.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import {
  toOrganizationAccessToken,
  type AvailableScope,
  type OrganizationAccessTokenOut,
  type OrganizationAccessTokenRow,
} from "./models.js";
import { findReadable, insert, readable, revoke, update } from "./repository.js";
import { tokenChanged } from "./verifier.js";

type CreateInput = components["schemas"]["OrganizationAccessTokenCreate"];
type UpdateInput = components["schemas"]["OrganizationAccessTokenUpdate"];
type ListQuery = NonNullable<operations["organization_access_tokens:list"]["parameters"]["query"]>;
export type CreateResponse = components["schemas"]["OrganizationAccessTokenCreateResponse"];

/** The scopes a token can hold: all but the user and web ones (Polar's reserved scopes). */
const RESERVED: ReadonlySet<string> = new Set(["openid", "profile", "email", "user:read", "web:read", "web:write"]);
const isAvailable = (s: string): s is AvailableScope => !RESERVED.has(s) && (ALL_SCOPES as readonly string[]).includes(s);
export const AVAILABLE_SCOPES: AvailableScope[] = ALL_SCOPES.filter(isAvailable);

const out = (row: OrganizationAccessTokenRow) => toOrganizationAccessToken(row, row.scopes.filter(isAvailable));

/** Seconds in an ISO 8601 duration of weeks, days, hours, minutes and seconds (`P30D`, `PT1H30M`). */
export function durationSeconds(value: string): number | null {
  const m = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
    value,
  );
  if (!m || value === "P" || value.endsWith("T")) return null;
  const [w, d, h, min, s] = m.slice(1).map((x) => Number(x ?? 0));
  return (((w * 7 + d) * 24 + h) * 60 + min) * 60 + s;
}

function expiresAt(input: CreateInput["expires_in"]): Date | null {
  if (input === undefined || input === null) return null;
  const seconds = typeof input === "number" ? input : durationSeconds(input);
  if (seconds === null || !(seconds > 0)) {
    throw invalid(
      ["body", "expires_in"],
      "Input should be a positive duration of weeks, days, hours, minutes or seconds (e.g. P30D)",
      "time_delta_parsing",
      input,
    );
  }
  return new Date(Date.now() + seconds * 1000);
}

/** A token never gets a scope its maker does not hold. */
function checkWithinCaller(caller: OrganizationCaller, scopes: readonly string[]): void {
  const beyond = scopes.filter((s) => !caller.scopes.has(s));
  if (beyond.length)
    throw invalid(["body", "scopes"], `You cannot grant scopes you do not hold: ${beyond.join(", ")}.`, "value_error", beyond);
}

/**
 * A caller changes or revokes only a token whose scopes it holds all of (a token its own, so
 * revoking itself stays allowed; a member's session holds its role's). The scopes compared are the
 * ones a token shows: the reserved ones allow no organization operation.
 */
function checkMayManage(caller: OrganizationCaller, row: OrganizationAccessTokenRow): void {
  const beyond = row.scopes.filter(isAvailable).filter((s) => !caller.scopes.has(s));
  if (beyond.length)
    throw new NotPermitted(`This token holds scopes you do not hold (${beyond.join(", ")}): you cannot change or revoke it.`);
}

/** Mints a token outside the API (seed, `make token`, tests, benchmarks); the plain token is returned once and never stored. */
export async function mintOrganizationToken(
  db: Knex,
  organizationId: string,
  opts: { scopes?: readonly string[]; comment?: string; expiresAt?: Date | null } = {},
): Promise<string> {
  const token = randomToken("polar_oat_");
  await insert(db, {
    organization_id: organizationId,
    token_hash: hashToken(token),
    scopes: [...(opts.scopes ?? ALL_SCOPES)],
    comment: opts.comment ?? "",
    expires_at: opts.expiresAt ?? null,
  });
  return token;
}

export async function listOrganizationAccessTokens(
  db: Knex,
  caller: OrganizationCaller,
  query: ListQuery,
): Promise<Page<OrganizationAccessTokenOut>> {
  const q = readable(db, caller).select("organization_access_tokens.*");
  const orgs = asList(query.organization_id);
  if (orgs.length)
    q.whereIn(
      "organization_access_tokens.organization_id",
      orgs.filter((id) => id === caller.organizationId),
    );
  applySorting(
    q,
    query.sorting,
    {
      created_at: "organization_access_tokens.created_at",
      comment: "organization_access_tokens.comment",
      last_used_at: "organization_access_tokens.last_used_at",
      organization_id: "organization_access_tokens.organization_id",
    },
    ["created_at"],
    "organization_access_tokens.id",
  );
  return listPage(q, query, (rows: OrganizationAccessTokenRow[]) => rows.map(out));
}

export async function createOrganizationAccessToken(db: Knex, caller: OrganizationCaller, input: CreateInput): Promise<CreateResponse> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found.", "value_error", input.organization_id);
  }
  const scopes = [...new Set(input.scopes)];
  checkWithinCaller(caller, scopes);
  const token = randomToken("polar_oat_");
  const row = await insert(db, {
    organization_id: caller.organizationId,
    token_hash: hashToken(token),
    scopes,
    comment: input.comment,
    expires_at: expiresAt(input.expires_in),
  });
  return { organization_access_token: out(row), token };
}

export async function updateOrganizationAccessToken(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: UpdateInput,
): Promise<OrganizationAccessTokenOut> {
  const updated = await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Organization access token not found.");
    checkMayManage(caller, row);
    const patch: Partial<OrganizationAccessTokenRow> = { modified_at: new Date() };
    if (input.comment !== undefined && input.comment !== null) patch.comment = input.comment;
    if (input.scopes !== undefined && input.scopes !== null) {
      const scopes = [...new Set(input.scopes)];
      checkWithinCaller(caller, scopes);
      patch.scopes = scopes;
    }
    return update(trx, row.id, patch);
  });
  if (input.scopes !== undefined && input.scopes !== null) await tokenChanged(updated.id);
  return out(updated);
}

/** Revokes the token (it stays in the table, out of every list and refused everywhere). */
export async function deleteOrganizationAccessToken(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  const revoked = await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Organization access token not found.");
    checkMayManage(caller, row);
    await revoke(trx, row.id);
    return row.id;
  });
  await tokenChanged(revoked);
}
