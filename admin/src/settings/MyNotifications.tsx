import { useEffect, useState } from "react";
import { useDataProvider, useNotify } from "react-admin";
import { Alert, Box, Card, CardContent, FormControlLabel, Switch, Typography } from "@mui/material";
import type { OrganizationNotificationPreferences } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { MERCHANT_EMAILS } from "./emailKinds";

/** The signed-in member's own notification emails; an access token is no member, so it has none. */
export function MyNotifications({ organizationId }: { organizationId: string }) {
  const notify = useNotify();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [prefs, setPrefs] = useState<OrganizationNotificationPreferences | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    dataProvider.getNotificationPreferences(organizationId).then(
      ({ data }) => setPrefs(data),
      () => setUnavailable(true),
    );
  }, [dataProvider, organizationId]);
  const toggle = async (kind: keyof OrganizationNotificationPreferences, on: boolean) => {
    const before = prefs;
    // the switch moves at once; the answer (or the failure) settles it
    if (before) setPrefs({ ...before, [kind]: on });
    try {
      setPrefs((await dataProvider.updateNotificationPreferences(organizationId, { [kind]: on })).data);
      notify(on ? "Notification on" : "Notification muted", { type: "success" });
    } catch (err) {
      setPrefs(before);
      notify(err instanceof Error ? err.message : String(err), { type: "error" });
    }
  };
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h2" variant="h6" gutterBottom>
          Your notifications
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Emails to you alone, as an owner or admin; muting one leaves the other members' as they are.
        </Typography>
        {unavailable ? (
          <Alert severity="info" sx={{ mt: 1 }}>
            Sign in with your account (not an access token) to choose your own notifications.
          </Alert>
        ) : null}
        {prefs
          ? MERCHANT_EMAILS.map(([kind, label]) => (
              <Box key={kind}>
                <FormControlLabel
                  control={<Switch checked={prefs[kind]} onChange={(e) => toggle(kind, e.target.checked)} />}
                  label={label}
                />
              </Box>
            ))
          : null}
      </CardContent>
    </Card>
  );
}
