// Settings: the organization's details, prices' default currency and tax behavior, its tax
// settings (who computes tax, from where, where it collects), how its invoices name it (legal name,
// address, VAT id) and its subscription settings (PATCH /v1/organizations/{id}). Emails are
// Settings → Email (EmailSettings.tsx).
import {
  ArrayInput,
  BooleanInput,
  FormDataConsumer,
  FunctionField,
  Labeled,
  SelectInput,
  TextField,
  TextInput,
  SimpleFormIterator,
  ResourceContextProvider,
  email,
} from "react-admin";
import { AddressInput } from "../common/AddressInput";
import { Typography } from "@mui/material";
import type { Organization } from "../api";
import { OrganizationForm } from "./OrganizationForm";
import { choicesOf } from "../common/inputs";
import { enumValues } from "../common/generic";
import { settingsBody } from "./organizationSettingsBody";
import { countryCodes } from "../../../shared/countries";

const TAX_BEHAVIORS = [
  { id: "location", name: "As is usual where the customer is" },
  { id: "inclusive", name: "Included in prices" },
  { id: "exclusive", name: "Added to prices" },
];

const TAX_PROVIDERS = [
  { id: "none", name: "None: no tax is collected" },
  { id: "builtin", name: "Built-in calculator (VAT, GST)" },
];

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The countries the server takes (shared/countries.ts), named in English, for the origin and registration countries. */
const COUNTRIES = countryCodes()
  .map((code) => ({ id: code, name: `${countryNames.of(code) ?? code} (${code})` }))
  .sort((a, b) => a.name.localeCompare(b.name));

const REGISTRATION_PLACES = [{ id: "EU", name: "European Union: One-Stop Shop (EU)" }, ...COUNTRIES];

export function OrganizationSettings() {
  return (
    <OrganizationForm title="Organization settings" heading="Organization" savedMessage="Settings saved" body={settingsBody}>
      <TextInput source="name" fullWidth />
      <Labeled label="Slug (fixed: it is in your checkout and portal URLs)">
        <TextField source="slug" />
      </Labeled>
      <TextInput source="email" validate={email()} />
      <TextInput source="website" fullWidth />
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        Prices
      </Typography>
      <SelectInput
        source="default_presentment_currency"
        label="Default currency"
        choices={(enumValues("organizations", "default_presentment_currency") ?? ["usd"]).map((c) => ({ id: c, name: c.toUpperCase() }))}
        helperText="Prices are shown in it when a product has several"
      />
      <SelectInput source="default_tax_behavior" label="Tax" choices={TAX_BEHAVIORS} />
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        Tax
      </Typography>
      <SelectInput
        source="tax_settings.provider"
        label="Who computes tax"
        choices={TAX_PROVIDERS}
        helperText="The built-in calculator charges VAT and GST where you are registered"
      />
      <SelectInput
        source="tax_settings.origin_country"
        label="You sell from"
        choices={COUNTRIES}
        emptyText="Not set"
        helperText="Required by the built-in calculator"
      />
      <BooleanInput
        source="tax_settings.prices_include_tax"
        label="Prices include tax"
        helperText="The total stays the listed price and the tax is carved out of it"
      />
      {/* The iterator's add and remove buttons name themselves after a resource. */}
      <ResourceContextProvider value="organizations">
        <ArrayInput source="tax_settings.registrations" label="Where you collect tax">
          <SimpleFormIterator inline disableReordering>
            <SelectInput source="country" label="Registered in" choices={REGISTRATION_PLACES} helperText={false} />
            <FormDataConsumer>
              {({ scopedFormData }) =>
                scopedFormData?.country === "US" || scopedFormData?.country === "CA" ? (
                  <TextInput source="state" label="State or province" helperText="e.g. QC; leave empty for the country" />
                ) : null
              }
            </FormDataConsumer>
          </SimpleFormIterator>
        </ArrayInput>
      </ResourceContextProvider>
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        On your invoices
      </Typography>
      <TextInput source="seller_details.name" label="Legal name" helperText="Your organization's name when empty" fullWidth />
      <AddressInput source="seller_details.address" label="Address" />
      <TextInput
        source="seller_details.tax_id.0"
        label="VAT or tax ID"
        helperText="Checked against the address's country, e.g. FR40303265045"
      />
      <Typography variant="subtitle1" sx={{ mt: 2 }}>
        Subscriptions
      </Typography>
      <BooleanInput source="subscription_settings.allow_multiple_subscriptions" label="A customer may hold several subscriptions" />
      <BooleanInput source="subscription_settings.allow_customer_updates" label="Customers may change plan in the portal" />
      <SelectInput source="subscription_settings.proration_behavior" label="Plan changes" choices={choicesOf(["invoice", "prorate"])} />
      <BooleanInput
        source="subscription_settings.prevent_trial_abuse"
        label="One free trial per customer"
        helperText="A customer who already had a trial of your products gets no other"
      />
      <Labeled label="Benefits of a subscription whose payment failed">
        <FunctionField
          render={(o: Organization) => `kept ${o.subscription_settings.benefit_revocation_grace_period} days, through the payment retries`}
        />
      </Labeled>
    </OrganizationForm>
  );
}
