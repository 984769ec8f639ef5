// Each benefit type's properties: checked (the contract gives their shape, this adds the
// rules), completed with their defaults, and turned into what the Benefit read model carries.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, RequestValidationError } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { uploadedIds } from "../files/repository.js";
import { findInOrganization as findMeterInOrganization } from "../meters/repository.js";
import { getBenefitVerifier, unverifiedGuild, type ProviderIssue } from "./verifier.js";

export type BenefitType = "custom" | "discord" | "github_repository" | "downloadables" | "license_keys" | "meter_credit";
export const BENEFIT_TYPES: readonly BenefitType[] = [
  "custom",
  "discord",
  "github_repository",
  "downloadables",
  "license_keys",
  "meter_credit",
];

type Props = Record<string, unknown>;
const LOC = ["body", "properties"];
const INT32_MAX = 2_147_483_647;
/** Polar's ceilings on a license key's lifetime per timeframe. */
const MAX_TTL: Record<string, number> = { year: 457, month: 1200, day: 36500 };
const PERMISSIONS = ["pull", "triage", "push", "maintain", "admin"];
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPOSITORY = /^[A-Za-z0-9._-]{1,100}$/;

const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

function positiveInt32(v: unknown, loc: (string | number)[]): number {
  if (!isInt(v)) throw invalid(loc, "Input should be a valid integer", "int_type", v);
  if (v <= 0) throw invalid(loc, "Input should be greater than 0", "greater_than", v);
  if (v > INT32_MAX) throw invalid(loc, `Input should be less than or equal to ${INT32_MAX}`, "less_than_equal", v);
  return v;
}

function nonEmpty(v: unknown, loc: (string | number)[]): string {
  if (typeof v !== "string" || v.trim().length === 0) throw invalid(loc, "String should have at least 1 character", "string_too_short", v);
  return v.trim();
}

function providerError(issue: ProviderIssue): RequestValidationError {
  return new RequestValidationError([{ loc: [...LOC, ...issue.loc], msg: issue.msg, type: issue.type }]);
}

function licenseKeys(p: Props): Props {
  let prefix: string | null = null;
  if (p.prefix !== undefined && p.prefix !== null) {
    if (typeof p.prefix !== "string") throw invalid([...LOC, "prefix"], "Input should be a valid string", "string_type");
    prefix = p.prefix.trim() === "" ? null : p.prefix.trim(); // an empty prefix means none
  }
  let expires: Props | null = null;
  if (p.expires !== undefined && p.expires !== null) {
    if (!isObject(p.expires)) throw invalid([...LOC, "expires"], "Input should be a valid dictionary", "dict_type");
    const ttl = positiveInt32(p.expires.ttl, [...LOC, "expires", "ttl"]);
    const timeframe = p.expires.timeframe;
    if (typeof timeframe !== "string" || !(timeframe in MAX_TTL)) {
      throw invalid([...LOC, "expires", "timeframe"], "Input should be 'year', 'month' or 'day'", "literal_error", timeframe);
    }
    if (ttl > MAX_TTL[timeframe]) {
      throw invalid(
        [...LOC, "expires", "ttl"],
        `ttl value ${ttl} exceeds the maximum of ${MAX_TTL[timeframe]} for timeframe '${timeframe}'.`,
        "value_error",
        ttl,
      );
    }
    expires = { ttl, timeframe };
  }
  let activations: Props | null = null;
  if (p.activations !== undefined && p.activations !== null) {
    if (!isObject(p.activations)) throw invalid([...LOC, "activations"], "Input should be a valid dictionary", "dict_type");
    const limit = positiveInt32(p.activations.limit, [...LOC, "activations", "limit"]);
    if (typeof p.activations.enable_customer_admin !== "boolean") {
      throw invalid([...LOC, "activations", "enable_customer_admin"], "Input should be a valid boolean", "bool_type");
    }
    activations = { limit, enable_customer_admin: p.activations.enable_customer_admin };
  }
  const limitUsage = p.limit_usage === undefined || p.limit_usage === null ? null : positiveInt32(p.limit_usage, [...LOC, "limit_usage"]);
  return { prefix, expires, activations, limit_usage: limitUsage };
}

async function downloadables(db: Knex, caller: OrganizationCaller, p: Props): Promise<Props> {
  if (!Array.isArray(p.files)) throw invalid([...LOC, "files"], "Field required", "missing");
  const files = p.files as unknown[];
  if (files.length === 0) throw invalid([...LOC, "files"], "List should have at least 1 item after validation, not 0", "too_short");
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (typeof f !== "string" || !isUuid(f)) throw invalid([...LOC, "files", i], "File not found.", "value_error", f);
    if (seen.has(f)) throw invalid([...LOC, "files", i], "A file can be listed once.", "value_error", f);
    seen.add(f);
  });
  const found = await uploadedIds(db, caller, files as string[], "downloadable");
  const missing = (files as string[]).findIndex((f) => !found.has(f));
  if (missing >= 0) {
    throw invalid(
      [...LOC, "files", missing],
      "File not found: it must be an uploaded downloadable file of this organization.",
      "value_error",
      files[missing],
    );
  }
  const archived: Record<string, boolean> = {};
  if (p.archived !== undefined && p.archived !== null) {
    if (!isObject(p.archived)) throw invalid([...LOC, "archived"], "Input should be a valid dictionary", "dict_type");
    for (const [id, flag] of Object.entries(p.archived)) {
      if (!seen.has(id)) throw invalid([...LOC, "archived", id], "Only files of the benefit can be archived.", "value_error", id);
      if (typeof flag !== "boolean") throw invalid([...LOC, "archived", id], "Input should be a valid boolean", "bool_type", flag);
      archived[id] = flag;
    }
  }
  return { files, archived };
}

async function meterCredit(db: Knex, caller: OrganizationCaller, p: Props): Promise<Props> {
  const units = positiveInt32(p.units, [...LOC, "units"]);
  if (typeof p.rollover !== "boolean") throw invalid([...LOC, "rollover"], "Input should be a valid boolean", "bool_type", p.rollover);
  const meter = isUuid(p.meter_id) ? await findMeterInOrganization(db, caller, p.meter_id) : undefined;
  if (!meter) throw invalid([...LOC, "meter_id"], "This meter does not exist.", "value_error", p.meter_id);
  if (meter.archived_at) throw invalid([...LOC, "meter_id"], "This meter is archived.", "value_error", p.meter_id);
  return { units, rollover: p.rollover, meter_id: p.meter_id };
}

async function discord(p: Props): Promise<Props> {
  const guildToken = nonEmpty(p.guild_token, [...LOC, "guild_token"]);
  const roleId = nonEmpty(p.role_id, [...LOC, "role_id"]);
  if (!/^\d{17,20}$/.test(roleId))
    throw invalid([...LOC, "role_id"], "The role id must be a Discord id (17 to 20 digits).", "value_error", roleId);
  if (typeof p.kick_member !== "boolean")
    throw invalid([...LOC, "kick_member"], "Input should be a valid boolean", "bool_type", p.kick_member);
  const verify = getBenefitVerifier().discord;
  const guild = verify ? await verify({ guildToken, roleId }) : unverifiedGuild(guildToken);
  if ("loc" in guild) throw providerError(guild);
  return { guild_id: guild.guildId, role_id: roleId, kick_member: p.kick_member, guild_token: guildToken };
}

async function githubRepository(p: Props): Promise<Props> {
  const owner = nonEmpty(p.repository_owner, [...LOC, "repository_owner"]);
  const name = nonEmpty(p.repository_name, [...LOC, "repository_name"]);
  if (!GITHUB_OWNER.test(owner))
    throw invalid([...LOC, "repository_owner"], "Not a valid GitHub user or organization name.", "value_error", owner);
  if (!GITHUB_REPOSITORY.test(name) || name === "." || name === "..") {
    throw invalid([...LOC, "repository_name"], "Not a valid GitHub repository name.", "value_error", name);
  }
  if (typeof p.permission !== "string" || !PERMISSIONS.includes(p.permission)) {
    throw invalid([...LOC, "permission"], `Input should be one of ${PERMISSIONS.join(", ")}`, "enum", p.permission);
  }
  const issue = await getBenefitVerifier().github?.({ owner, name, permission: p.permission });
  if (issue) throw providerError(issue);
  return { repository_owner: owner, repository_name: name, permission: p.permission };
}

/** Validates `input` as the properties of a benefit of `type` and returns what is stored. */
export async function checkProperties(db: Knex, caller: OrganizationCaller, type: BenefitType, input: unknown): Promise<Props> {
  if (!isObject(input)) throw invalid(LOC, "Input should be a valid dictionary", "dict_type");
  switch (type) {
    case "custom": {
      const note = input.note;
      if (note !== undefined && note !== null && typeof note !== "string")
        throw invalid([...LOC, "note"], "Input should be a valid string", "string_type");
      return { note: note ?? null };
    }
    case "license_keys":
      return licenseKeys(input);
    case "downloadables":
      return downloadables(db, caller, input);
    case "meter_credit":
      return meterCredit(db, caller, input);
    case "discord":
      return discord(input);
    case "github_repository":
      return githubRepository(input);
  }
}
