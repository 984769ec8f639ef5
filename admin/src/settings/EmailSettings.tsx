// Settings → Email: which emails the organization's customers get, the sale and subscription
// notifications, the emails' brand colour and renewal reminder lead time (PATCH
// /v1/organizations/{id}), a live preview of every template that follows the unsaved colour
// (POST /v1/emails/preview), and the signed-in member's own notification mutes.
import { BooleanInput, NumberInput, TextInput, maxValue, minValue, regex, required } from "react-admin";
import { Typography } from "@mui/material";
import type { Organization } from "../api";
import { OrganizationForm } from "./OrganizationForm";
import { LivePreview } from "./LivePreview";
import { MyNotifications } from "./MyNotifications";
import { HEX_COLOR, CUSTOMER_EMAILS } from "./emailKinds";

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
