// The scopes an OAuth2 application may ask for: who the person is (OpenID Connect), staying signed
// in (offline_access), and the organization's read and write scopes an access token can hold.
import { ALL_SCOPES } from "../../settings/scopes";

/** Polar's old scopes that grant nothing, and the token scopes an application may not hold. */
const LEFT_OUT = /^(repositories|issues|external_organizations|organization_access_tokens):/;

export const CLIENT_SCOPES: { id: string; name: string }[] = ["openid", "profile", "email", "offline_access", "user:read"]
  .concat(ALL_SCOPES.filter((s) => !LEFT_OUT.test(s)))
  .map((s) => ({ id: s, name: s }));

export const DEFAULT_SCOPES = ["openid", "profile", "email"];
