// The sign-in page's ways in, and each one's title.
export type Mode = "sign-in" | "sign-up" | "forgot" | "token" | "two-factor";

export const TITLES: Record<Mode, string> = {
  "sign-in": "Sign in to Borealis",
  "sign-up": "Create your account",
  forgot: "Reset your password",
  token: "Sign in with an access token",
  "two-factor": "Two-factor authentication",
};
