// Settings → Email: which emails the organization's customers get, the sale and subscription
// notifications, the emails' brand colour and renewal reminder lead time (PATCH
// /v1/organizations/{id}), a live preview of every template that follows the unsaved colour
// (POST /v1/emails/preview), and the signed-in member's own notification mutes.
import { useEffect, useState } from "react";
import { BooleanInput, NumberInput, TextInput, maxValue, minValue, regex, required, useNotify } from "react-admin";
import { useWatch } from "react-hook-form";
import {
  Alert,
  Box,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Select,
  Switch,
  Typography,
} from "@mui/material";
import type { EmailKind, EmailPreview, Organization, OrganizationNotificationPreferences } from "../api";
import { call } from "../dataProvider/request";
import { OrganizationForm } from "./OrganizationForm";

type CustomerEmailKey = keyof Organization["customer_email_settings"];

/** The customer emails Borealis sends, in the order the form lists them. */
const CUSTOMER_EMAILS: [CustomerEmailKey & EmailKind, string][] = [
  ["order_confirmation", "Order receipt"],
  ["subscription_confirmation", "Subscription started"],
  ["subscription_cycled", "Renewal receipt"],
  ["subscription_renewal_reminder", "Renewal soon (yearly plans)"],
  ["subscription_payment_failed", "Payment failed"],
  ["subscription_past_due", "Past due"],
  ["subscription_cancellation", "Cancellation scheduled"],
  ["subscription_uncanceled", "Cancellation withdrawn"],
  ["subscription_revoked", "Subscription ended"],
  ["subscription_updated", "Plan changed"],
  ["benefit_granted", "Benefit granted"],
  ["order_refunded", "Refund issued"],
  ["payment_method_expiration_reminder", "Card expiring soon"],
];

const MERCHANT_EMAILS: [keyof OrganizationNotificationPreferences & EmailKind, string][] = [
  ["notification_new_sale", "New sale"],
  ["notification_new_subscription", "New subscription"],
  ["notification_subscription_cancellation", "Subscription canceled"],
  ["notification_refund", "Refund"],
  ["webhook_endpoint_disabled", "Webhook endpoint disabled"],
];

const PREVIEW_KINDS: [EmailKind, string][] = [...CUSTOMER_EMAILS, ...MERCHANT_EMAILS];
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The chosen template rendered with sample data in the form's current (unsaved) colour. */
function LivePreview() {
  const color: unknown = useWatch({ name: "email_settings.brand_color" });
  const [kind, setKind] = useState<EmailKind>("order_confirmation");
  const [preview, setPreview] = useState<EmailPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const draft = typeof color === "string" && HEX_COLOR.test(color) ? color : null;
  useEffect(() => {
    let live = true;
    // a short pause so typing a colour asks once
    const timer = setTimeout(() => {
      call<EmailPreview>("POST", "/v1/emails/preview", { body: { kind, brand_color: draft } }).then(
        (p) => live && (setPreview(p), setError(null)),
        (e: Error) => live && setError(e.message),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [kind, draft]);
  return (
    <Box component="section" aria-label="Preview" sx={{ mt: 3, width: "100%" }}>
      <Typography component="h2" variant="subtitle1">
        Preview
      </Typography>
      <FormControl size="small" sx={{ my: 1, minWidth: 280 }}>
        <InputLabel id="preview-kind-label">Template</InputLabel>
        <Select<EmailKind> labelId="preview-kind-label" label="Template" value={kind} onChange={(e) => setKind(e.target.value)}>
          {PREVIEW_KINDS.map(([k, label]) => (
            <MenuItem key={k} value={k}>
              {label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {preview ? (
        <>
          <Typography variant="body2" data-testid="preview-subject">
            Subject: {preview.subject}
          </Typography>
          <Box
            component="iframe"
            title={`Preview: ${preview.subject}`}
            srcDoc={preview.html}
            sandbox=""
            data-brand-color={draft ?? ""}
            sx={{ width: "100%", maxWidth: 680, height: 640, border: 1, borderColor: "divider", borderRadius: 1, mt: 1, bgcolor: "#fff" }}
          />
        </>
      ) : null}
    </Box>
  );
}

/** The signed-in member's own notification emails; an access token is no member, so it has none. */
function MyNotifications({ organizationId }: { organizationId: string }) {
  const notify = useNotify();
  const [prefs, setPrefs] = useState<OrganizationNotificationPreferences | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const path = { id: organizationId };
  useEffect(() => {
    call<OrganizationNotificationPreferences>("GET", "/v1/organizations/{id}/notification-preferences", { path }).then(setPrefs, () =>
      setUnavailable(true),
    );
  }, [organizationId]);
  const toggle = async (kind: keyof OrganizationNotificationPreferences, on: boolean) => {
    const before = prefs;
    // the switch moves at once; the answer (or the failure) settles it
    if (before) setPrefs({ ...before, [kind]: on });
    try {
      setPrefs(
        await call<OrganizationNotificationPreferences>("PATCH", "/v1/organizations/{id}/notification-preferences", {
          path,
          body: { [kind]: on },
        }),
      );
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

/** The body of PATCH /v1/organizations/{id} this page sends. */
function emailSettingsBody(v: Record<string, unknown>): Record<string, unknown> {
  const settings = v.email_settings as Organization["email_settings"];
  return {
    customer_email_settings: v.customer_email_settings,
    notification_settings: v.notification_settings,
    email_settings: { brand_color: settings.brand_color, renewal_reminder_days: settings.renewal_reminder_days },
  };
}

export function EmailSettings() {
  return (
    <OrganizationForm
      title="Email settings"
      heading="Email"
      savedMessage="Email settings saved"
      body={emailSettingsBody}
      after={(org) => <MyNotifications organizationId={org.id} />}
    >
      <Typography component="h2" variant="subtitle1">
        Branding
      </Typography>
      <TextInput
        source="email_settings.brand_color"
        label="Brand colour"
        helperText="#rrggbb: buttons and headings in your emails"
        validate={[required(), regex(HEX_COLOR, "A colour is # and six hexadecimal digits, e.g. #0062ff")]}
      />
      <NumberInput
        source="email_settings.renewal_reminder_days"
        label="Renewal reminder, days before"
        helperText="Yearly plans, 1 to 60 days"
        validate={[required(), minValue(1), maxValue(60)]}
      />
      <Typography component="h2" variant="subtitle1" sx={{ mt: 2 }}>
        Emails to your customers
      </Typography>
      {CUSTOMER_EMAILS.map(([key, label]) => (
        <BooleanInput key={key} source={`customer_email_settings.${key}`} label={label} helperText={false} />
      ))}
      <Typography component="h2" variant="subtitle1" sx={{ mt: 2 }}>
        Notifications to owners and admins
      </Typography>
      <BooleanInput source="notification_settings.new_order" label="A new sale" helperText={false} />
      <BooleanInput source="notification_settings.new_subscription" label="A new subscription" helperText={false} />
      <LivePreview />
    </OrganizationForm>
  );
}
