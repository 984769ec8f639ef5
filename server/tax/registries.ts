// Online confirmation of VAT ids by their registries: the EU's VIES (REST API, `POST
// /check-vat-number`) for `eu_vat` ids, HMRC's Check a UK VAT number (version 2) for `gb_vat`.
// Never throws: an error, a timeout or an answer we cannot read is `unavailable`, so the caller
// can retry later; the offline check (tax-ids.ts) is what a checkout decides with.
import { setting } from "../config.js";

export type RegistryService = "vies" | "hmrc";
export type RegistryStatus = "valid" | "invalid" | "unavailable";

export interface RegistryAnswer {
  status: RegistryStatus;
  service: RegistryService;
  /** The trader's name and address as the registry returned them (null when it gave none). */
  name: string | null;
  address: string | null;
  /** The registry's own date of the check when it gave one, else the time of the answer. */
  checkedAt: Date;
}

export interface RegistrySettings {
  viesUrl: string;
  hmrcUrl: string;
  hmrcClientId: string | undefined;
  hmrcClientSecret: string | undefined;
  timeoutMs: number;
}

export function registrySettings(): RegistrySettings {
  return {
    viesUrl: setting("VIES_URL"),
    hmrcUrl: setting("HMRC_URL"),
    hmrcClientId: setting("HMRC_CLIENT_ID"),
    hmrcClientSecret: setting("HMRC_CLIENT_SECRET"),
    timeoutMs: setting("TAX_ID_CHECK_TIMEOUT_MS"),
  };
}

/** The registry that confirms a tax id of this type and value, or null when none does. */
export function registryOf(type: string, value: string): RegistryService | null {
  if (type === "eu_vat" && /^[A-Z]{2}/.test(value)) return "vies";
  if (type === "gb_vat") return "hmrc";
  return null;
}

/** Confirms a compact VAT id (`FR40303265045`, `GB980780684`) with its registry. */
export async function confirmTaxId(
  service: RegistryService,
  value: string,
  s: RegistrySettings = registrySettings(),
): Promise<RegistryAnswer> {
  try {
    return service === "vies" ? await checkVies(value, s) : await checkHmrc(value, s);
  } catch {
    return { status: "unavailable", service, name: null, address: null, checkedAt: new Date() };
  }
}

function endpoint(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

/** VIES answers "---" for a name or address a member state does not share. */
function shared(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" && v.trim() !== "---" ? v.trim() : null;
}

function dateOr(v: unknown): Date {
  const d = typeof v === "string" ? new Date(v) : null;
  return d !== null && !Number.isNaN(d.getTime()) ? d : new Date();
}

/** VIES's user errors that say the number is wrong, not that the service is away. */
const VIES_INPUT_ERRORS = new Set(["INVALID", "INVALID_INPUT"]);

async function checkVies(value: string, s: RegistrySettings): Promise<RegistryAnswer> {
  const res = await fetch(endpoint(s.viesUrl, "/check-vat-number"), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ countryCode: value.slice(0, 2), vatNumber: value.slice(2) }),
    signal: AbortSignal.timeout(s.timeoutMs),
  });
  const body: unknown = await res.json().catch(() => null);
  const b = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const unavailable: RegistryAnswer = { status: "unavailable", service: "vies", name: null, address: null, checkedAt: new Date() };
  // A refused request names its reason in errorWrappers; only a bad number is an answer.
  const errors = Array.isArray(b.errorWrappers) ? b.errorWrappers.map((e) => (e as { error?: unknown })?.error) : [];
  if (errors.length > 0)
    return errors.every((e) => typeof e === "string" && VIES_INPUT_ERRORS.has(e))
      ? Object.assign(unavailable, { status: "invalid" as const })
      : unavailable;
  if (!res.ok || typeof b.valid !== "boolean") return unavailable;
  // The member state's service may be away while VIES answers: `userError` says so.
  if (typeof b.userError === "string" && b.userError !== "VALID" && !VIES_INPUT_ERRORS.has(b.userError)) return unavailable;
  return {
    status: b.valid ? "valid" : "invalid",
    service: "vies",
    name: shared(b.name),
    address: shared(b.address),
    checkedAt: dateOr(b.requestDate),
  };
}

/** HMRC's tokens by URL and client, kept until a minute before they expire (HMRC issues them for 4 hours). */
const hmrcTokens = new Map<string, { token: string; until: number }>();

async function hmrcToken(s: RegistrySettings): Promise<string | null> {
  if (!s.hmrcClientId || !s.hmrcClientSecret) return null;
  const key = `${s.hmrcUrl} ${s.hmrcClientId}`;
  const kept = hmrcTokens.get(key);
  if (kept && kept.until > Date.now()) return kept.token;
  const res = await fetch(endpoint(s.hmrcUrl, "/oauth/token"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: s.hmrcClientId,
      client_secret: s.hmrcClientSecret,
      scope: "read:vat",
    }),
    signal: AbortSignal.timeout(s.timeoutMs),
  });
  const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
  if (!res.ok || typeof body?.access_token !== "string") throw new Error(`HMRC token refused (${res.status})`);
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 0;
  hmrcTokens.set(key, { token: body.access_token, until: Date.now() + (seconds - 60) * 1000 });
  return body.access_token;
}

/** An HMRC address (`line1`…`line5`, `postcode`, `countryCode`) on one line. */
function hmrcAddress(a: unknown): string | null {
  if (typeof a !== "object" || a === null) return null;
  const r = a as Record<string, unknown>;
  const parts = ["line1", "line2", "line3", "line4", "line5", "postcode", "countryCode"].map((k) => shared(r[k])).filter((p) => p !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}

async function checkHmrc(value: string, s: RegistrySettings): Promise<RegistryAnswer> {
  const token = await hmrcToken(s);
  const vrn = value.replace(/^GB/, "");
  const headers: Record<string, string> = { accept: "application/vnd.hmrc.2.0+json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(endpoint(s.hmrcUrl, `/organisations/vat/check-vat-number/lookup/${encodeURIComponent(vrn)}`), {
    headers,
    signal: AbortSignal.timeout(s.timeoutMs),
  });
  const body: unknown = await res.json().catch(() => null);
  const unavailable: RegistryAnswer = { status: "unavailable", service: "hmrc", name: null, address: null, checkedAt: new Date() };
  // 404: no registered company has this number; 400: HMRC refuses its format.
  if (res.status === 404 || res.status === 400) return Object.assign(unavailable, { status: "invalid" as const });
  const target =
    res.ok && typeof body === "object" && body !== null ? (body as { target?: Record<string, unknown>; processingDate?: unknown }) : null;
  if (!target?.target) return unavailable;
  return {
    status: "valid",
    service: "hmrc",
    name: shared(target.target.name),
    address: hmrcAddress(target.target.address),
    checkedAt: dateOr(target.processingDate),
  };
}
