// /dashboard/account: the signed-in person's own account: profile, email, password, the devices
// signed in, and two-factor authentication. Everything goes through better-auth at /api/auth.
import { Title, useGetIdentity } from "react-admin";
import { Alert, Box, CircularProgress, Stack, Typography } from "@mui/material";
import type { Identity } from "../authProvider";
import { useMe } from "./useMe";
import { ProfileCard } from "./ProfileCard";
import { EmailCard } from "./EmailCard";
import { PasswordCard } from "./PasswordCard";
import { SessionsCard } from "./SessionsCard";
import { TwoFactorCard } from "./TwoFactorCard";

export function AccountPage() {
  const { data } = useGetIdentity();
  const { me, sessionId, error, reload } = useMe();
  if ((data as Identity | undefined)?.viaToken)
    return (
      <Box sx={{ mt: 2 }}>
        <Title title="My account" />
        <Alert severity="info">
          An access token acts for its organization, not for a person: sign in with your email to manage your account.
        </Alert>
      </Box>
    );
  return (
    <Box sx={{ mt: 2, maxWidth: 760 }}>
      <Title title="My account" />
      <Typography component="h1" variant="h5" gutterBottom>
        My account
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {!me && !error ? <CircularProgress aria-label="Loading your account" /> : null}
      {me ? (
        <Stack spacing={2}>
          <ProfileCard me={me} onSaved={reload} />
          <EmailCard me={me} />
          <PasswordCard />
          <TwoFactorCard enabled={!!me.twoFactorEnabled} onChange={reload} />
          {/* turning two-factor on or off renews the session: list the devices again */}
          <SessionsCard key={sessionId ?? ""} currentId={sessionId} />
        </Stack>
      ) : null}
    </Box>
  );
}
