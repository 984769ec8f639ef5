import { BooleanField, FunctionField, Show, Tab, TabbedShowLayout, TextField } from "react-admin";
import { Chip } from "@mui/material";
import type { Benefit } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { RelatedList, ShowActions, recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { benefitSummary } from "./benefitSummary";

export function BenefitShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="description" />
          <EnumField source="type" />
          <FunctionField label="Gives" render={(b: Benefit) => benefitSummary(b)} />
          {recordDetails()}
        </Tab>
        <Tab label="Grants" path="grants">
          <RelatedList reference="benefits-grants" target="benefit_id" label={false} rowClick={false} empty="Not granted to anyone yet.">
            <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
            <BooleanField source="is_granted" label="Granted" />
            <DateTimeField source="granted_at" label="Granted at" />
            <BooleanField source="is_revoked" label="Revoked" />
            <DateTimeField source="revoked_at" label="Revoked at" />
            <FunctionField
              label="Error"
              render={(g: { error?: { message: string } | null }) =>
                g.error ? <Chip size="small" color="error" label={g.error.message} /> : "—"
              }
            />
          </RelatedList>
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}
