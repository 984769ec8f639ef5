// An organization's `embed_hosts`: the hosts whose pages may embed its hosted checkout (frame it).
// An entry is a host with an optional port and no scheme, `*.example.com` for any subdomain of
// example.com (not example.com itself), or an app origin given whole (`chrome-extension://abc`).
// HTTPS pages of a listed host may embed it, HTTP ones only for a local host (localhost, *.localhost,
// *.local, loopback and private addresses). An empty list lets any origin embed it.
import { isIP } from "node:net";
import { invalid } from "../kit/errors.js";
import { refusedAddress } from "../webhooks/url.js";

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*(?::\\d{1,5})?$`);
const IPV6_HOST = /^\[[0-9a-f:.]+\](?::\d{1,5})?$/;
const APP_ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/[^\s/]+$/;
const MAX_HOSTS = 100;

function validPort(entry: string): boolean {
  const port = /:(\d+)$/.exec(entry.replace(/^\[[^\]]*\]/, ""))?.[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/** The list as stored: entries trimmed, lowercased and each once; a 422 on the first invalid one. */
export function checkEmbedHosts(hosts: string[], loc: (string | number)[]): string[] {
  if (hosts.length > MAX_HOSTS) throw invalid(loc, `At most ${MAX_HOSTS} hosts may be listed.`, "too_long", hosts.length);
  const out: string[] = [];
  for (const [i, given] of hosts.entries()) {
    const entry = given.trim().toLowerCase();
    const app = APP_ORIGIN.exec(entry);
    const ok = app ? app[1] !== "http" && app[1] !== "https" : (HOST.test(entry) || IPV6_HOST.test(entry)) && validPort(entry);
    if (!ok) {
      throw invalid(
        [...loc, i],
        "Input should be a host with an optional port and no scheme (`shop.example.com`, `*.example.com`, `localhost:3000`), or an app origin such as `chrome-extension://abcdef`.",
        "value_error",
        given,
      );
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

/** A host that may embed over plain HTTP: a local name, or a loopback or private address. */
function isLocal(hostname: string): boolean {
  if (hostname === "localhost" || hostname.endsWith(".localhost") || hostname.endsWith(".local")) return true;
  const ip = hostname.replace(/^\[|\]$/g, "");
  return isIP(ip) !== 0 && refusedAddress(ip, { allowHttp: false, allowLoopback: false, allowPrivate: false }) !== null;
}

/** Whether a page of `origin` (an origin, as a checkout's embed_origin holds it) may embed the checkout. */
export function embeddableBy(hosts: readonly string[], origin: string): boolean {
  if (hosts.length === 0) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return hosts.includes(url.origin === "null" ? origin : url.origin);
  if (url.protocol === "http:" && !isLocal(url.hostname)) return false;
  return hosts.some((entry) => {
    const hasPort = IPV6_HOST.test(entry) ? /\]:\d+$/.test(entry) : entry.includes(":");
    const subject = hasPort ? url.host : url.hostname;
    return entry.startsWith("*.") ? subject.endsWith(entry.slice(1)) && subject.length > entry.length - 1 : subject === entry;
  });
}
