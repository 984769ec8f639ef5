// The portal's customer session: a token from the merchant's link (?customer_session_token=) or
// from the email-code sign-in, kept in this tab's sessionStorage per organization and taken out of
// the address bar (so it is not shared with the URL or left in history).
const key = (slug: string) => `borealis.portal.${slug}`;

export function takeTokenFromUrl(slug: string): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get("customer_session_token");
  if (!token) return;
  window.sessionStorage.setItem(key(slug), token);
  url.searchParams.delete("customer_session_token");
  window.history.replaceState(null, "", url.pathname + (url.search ? url.search : "") + url.hash);
}

export function storedToken(slug: string): string | null {
  return window.sessionStorage.getItem(key(slug));
}

export function storeToken(slug: string, token: string): void {
  window.sessionStorage.setItem(key(slug), token);
}

export function forgetToken(slug: string): void {
  window.sessionStorage.removeItem(key(slug));
}
