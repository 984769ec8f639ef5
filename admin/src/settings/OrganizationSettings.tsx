// Settings: the organization's details and its subscription settings (PATCH /v1/organizations/{id}).
import { submissionErrors } from "../common/submit";
import { useEffect, useState } from "react";
import { BooleanInput, Labeled, SelectInput, SimpleForm, TextField, TextInput, Title, useNotify, Toolbar, SaveButton, email } from "react-admin";
import { Alert, Card, CardContent, Typography } from "@mui/material";
import type { Organization } from "../api";
import { call } from "../dataProvider/request";
import { choicesOf } from "../common/inputs";

export function OrganizationSettings() {
  const notify = useNotify();
  const [org, setOrg] = useState<Organization | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call<{ items: Organization[] }>("GET", "/v1/organizations/", { query: { limit: 1 } }).then((p) => setOrg(p.items[0] ?? null), (e: Error) => setError(e.message));
  }, []);
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Organization settings" />
      <CardContent>
        <Typography component="h1" variant="h5" gutterBottom>Organization</Typography>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {org ? (
          <SimpleForm
            record={org}
            toolbar={<Toolbar><SaveButton /></Toolbar>}
            onSubmit={async (v: Record<string, unknown>) => {
              try {
                const saved = await call<Organization>("PATCH", "/v1/organizations/{id}", {
                  path: { id: org.id },
                  body: { name: v.name, email: v.email || null, website: v.website || null, subscription_settings: v.subscription_settings, notification_settings: v.notification_settings },
                });
                setOrg(saved);
                notify("Settings saved", { type: "success" });
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            <TextInput source="name" fullWidth />
            <Labeled label="Slug (fixed: it is in your checkout and portal URLs)">
              <TextField source="slug" />
            </Labeled>
            <TextInput source="email" validate={email()} />
            <TextInput source="website" fullWidth />
            <Typography variant="subtitle1" sx={{ mt: 2 }}>Subscriptions</Typography>
            <BooleanInput source="subscription_settings.allow_multiple_subscriptions" label="A customer may hold several subscriptions" />
            <BooleanInput source="subscription_settings.allow_customer_updates" label="Customers may change plan in the portal" />
            <SelectInput source="subscription_settings.proration_behavior" label="Plan changes" choices={choicesOf(["invoice", "prorate"])} />
            <Typography variant="subtitle1" sx={{ mt: 2 }}>Notifications</Typography>
            <BooleanInput source="notification_settings.new_order" label="E-mail me on each new order" />
            <BooleanInput source="notification_settings.new_subscription" label="E-mail me on each new subscription" />
          </SimpleForm>
        ) : null}
      </CardContent>
    </Card>
  );
}
