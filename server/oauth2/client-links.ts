// The links a registered OAuth2 client shows the people it asks for consent (its home page, logo,
// terms of service, privacy policy): http(s) URLs only, as Polar's client configuration has them.
// Its redirect URIs follow their own rules (better-auth's provider checks them).
import { httpUrlProblem } from "../kit/urls.js";

export const CLIENT_LINKS = ["client_uri", "logo_uri", "tos_uri", "policy_uri"] as const;

/** RFC 7591's error body for the first of the client's links that is not an http(s) URL, or null. */
export function clientLinksProblem(metadata: unknown): { error: "invalid_client_metadata"; error_description: string } | null {
  if (!metadata || typeof metadata !== "object") return null;
  for (const key of CLIENT_LINKS) {
    const value = (metadata as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    const problem = httpUrlProblem(value);
    if (problem) return { error: "invalid_client_metadata", error_description: `${key}: ${problem.msg}` };
  }
  return null;
}
