// Where a webhook may be sent: no SSRF into the host's own network. https only, unless
// WEBHOOKS_ALLOW_HTTP=1 or NODE_ENV=development; loopback only with WEBHOOKS_ALLOW_LOOPBACK=1;
// private, link-local and other non-public ranges only with WEBHOOKS_ALLOW_PRIVATE=1. Checked
// on the URL when an endpoint is saved, and again on every resolved address at delivery time
// (a public name can later resolve to a private address).
import { BlockList, isIP } from "node:net";
import { invalid } from "../kit/errors.js";
import { setting } from "../config.js";

export interface UrlPolicy {
  allowHttp: boolean;
  allowLoopback: boolean;
  allowPrivate: boolean;
}

/** Read at each check, so tests (and operators) can change it without a restart. */
export function urlPolicy(): UrlPolicy {
  return {
    allowHttp: setting("WEBHOOKS_ALLOW_HTTP") || setting("NODE_ENV") === "development",
    allowLoopback: setting("WEBHOOKS_ALLOW_LOOPBACK"),
    allowPrivate: setting("WEBHOOKS_ALLOW_PRIVATE"),
  };
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

const nonPublic = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv6");
}

/** Why an address is refused under the policy, or null when it may be contacted. */
export function refusedAddress(address: string, policy: UrlPolicy = urlPolicy()): string | null {
  let ip = address;
  let family = isIP(ip);
  if (family === 0) return null;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address it maps.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (family === 6 && mapped) {
    ip = mapped[1];
    family = 4;
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  if (loopback.check(ip, type)) return policy.allowLoopback ? null : "loopback addresses are not allowed";
  if (nonPublic.check(ip, type)) return policy.allowPrivate ? null : "private network addresses are not allowed";
  return null;
}

/** The URL as stored, or a 422 on `body.url`. */
export function checkWebhookUrl(value: unknown, policy: UrlPolicy = urlPolicy()): string {
  const loc = ["body", "url"];
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalid(loc, "Input should be a valid URL", "url_parsing", value);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid(loc, "URL scheme should be 'https'", "url_scheme", value);
  if (url.protocol === "http:" && !policy.allowHttp) throw invalid(loc, "URL scheme should be 'https'", "url_scheme", value);
  if (String(value).length > 2083) throw invalid(loc, "URL should have at most 2083 characters", "url_too_long", value);
  if (url.username || url.password) throw invalid(loc, "URL must not carry credentials", "value_error", value);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    if (!policy.allowLoopback) throw invalid(loc, "loopback addresses are not allowed", "value_error", value);
  } else {
    const refused = refusedAddress(host, policy);
    if (refused) throw invalid(loc, refused, "value_error", value);
  }
  return url.toString();
}
