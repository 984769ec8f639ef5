// Loopback redirect URIs (RFC 8252 sections 7.3 and 8.3, OAuth 2.1): http on localhost,
// 127.0.0.0/8 or [::1], where a native app or a developer's machine listens on whatever port it
// gets, so the port may differ from the registered one when the authorization request is made.
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function loopbackHttp(uri: string): URL | null {
  if (!URL.canParse(uri)) return null;
  const url = new URL(uri);
  return url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname) ? url : null;
}

export const isLoopbackRedirect = (uri: string): boolean => loopbackHttp(uri) !== null;

/** Whether `requested` is one of the client's redirect URIs: exactly, or a loopback one on another port. */
export function isRegisteredRedirect(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopbackHttp(requested);
  if (!asked) return false;
  return registered.some((uri) => {
    const candidate = loopbackHttp(uri);
    if (!candidate) return false;
    candidate.port = asked.port;
    return candidate.href === asked.href;
  });
}
