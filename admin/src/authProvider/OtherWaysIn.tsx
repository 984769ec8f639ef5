import { Box, Link } from "@mui/material";
import type { Mode } from "./loginModes";

/** Links to the sign-in page's other ways in than the one shown. */
export function OtherWaysIn({ mode, go }: { mode: Mode; go: (m: Mode) => void }) {
  return (
    <Box component="nav" aria-label="Other ways in" sx={{ mt: 2, display: "flex", flexDirection: "column", gap: 0.5 }}>
      {mode !== "sign-in" ? (
        <Link component="button" type="button" onClick={() => go("sign-in")}>
          Sign in with email and password
        </Link>
      ) : null}
      {mode !== "sign-up" ? (
        <Link component="button" type="button" onClick={() => go("sign-up")}>
          Create an account
        </Link>
      ) : null}
      {mode !== "forgot" ? (
        <Link component="button" type="button" onClick={() => go("forgot")}>
          Forgot your password?
        </Link>
      ) : null}
      {mode !== "token" ? (
        <Link component="button" type="button" onClick={() => go("token")}>
          Use an access token
        </Link>
      ) : null}
    </Box>
  );
}
