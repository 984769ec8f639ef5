// Where the console's credentials live, the one place the API client reads them from. The
// console signs in with the better-auth session cookie when the API offers it (sent by the browser
// on its own, same origin); until then, and for self-hosters who prefer it, with an organization
// access token kept for this tab only.
const TOKEN_KEY = "borealis.console.token";

export const credentials = {
  /** the Bearer token the API client sends, if signed in with one */
  bearer(): string | undefined {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  },
  setBearer(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};
