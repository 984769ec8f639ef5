// The scopes an OAuth2 application may ask for: those a consent shows (the contract's
// AuthorizeScope: who the person is, and the organization's read and write scopes that grant
// something), with offline_access (OpenID Connect's, for a refresh token) after the person's own.
import { adminEnums } from "../../../../generated/admin-resources";

const GRANTING: readonly string[] = adminEnums.AuthorizeScope ?? [];

export const CLIENT_SCOPES: { id: string; name: string }[] = GRANTING.flatMap((s) => (s === "email" ? [s, "offline_access"] : [s])).map(
  (s) => ({ id: s, name: s }),
);

export const DEFAULT_SCOPES = ["openid", "profile", "email"];
