// Customer meters: each customer's usage of each meter in the current window (since the last
// reset): consumed units, credited units (meter credit benefits) and the balance between them.
// Units are the meter's own (calls, tokens…), not money, shown in the meter's unit.
import { Datagrid, FunctionField, Show, SimpleShowLayout, TextField, useRecordContext } from "react-admin";
import { Typography } from "@mui/material";
import DataUsageIcon from "@mui/icons-material/DataUsage";
import { Link } from "react-router-dom";
import type { CustomerMeter } from "../../api";
import { DateTimeField } from "../../common/fields";
import { formatMeterQuantity } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, recordDetails, facts } from "../../common/layouts";
import { LinkField } from "../../common/references";

/** A number of the customer meter's units, in its meter's unit (plain where the meter is not at hand: the customer state's meters). */
const units = (n: number, m: { meter?: CustomerMeter["meter"] }) => formatMeterQuantity(n, m.meter ?? { unit: "scalar" });

/** The balance, red when the customer used more than they were credited. */
export function BalanceField(_props: { label?: string; sortBy?: string }) {
  const m = useRecordContext<Pick<CustomerMeter, "id" | "balance"> & { meter?: CustomerMeter["meter"] }>();
  if (!m) return null;
  return (
    <Typography component="span" variant="body2" color={m.balance < 0 ? "error" : undefined} sx={{ fontVariantNumeric: "tabular-nums" }}>
      {units(m.balance, m)}
    </Typography>
  );
}

/** The columns a customer meter has in a list (the customer's page leaves the customer out, the meter's the meter). */
export function CustomerMeterColumns({ customer = true, meter = true }: { customer?: boolean; meter?: boolean }) {
  return (
    <Datagrid
      resource="customer-meters"
      rowClick={(id) => `/customer-meters/${id}/show`}
      bulkActionButtons={false}
      empty={<Typography variant="body2">No usage yet.</Typography>}
    >
      {customer ? <TextField source="customer.email" label="Customer" sortBy="customer_name" /> : null}
      {meter ? <TextField source="meter.name" label="Meter" sortBy="meter_name" /> : null}
      <FunctionField source="consumed_units" label="Consumed" textAlign="right" render={(m: CustomerMeter) => units(m.consumed_units, m)} />
      <FunctionField source="credited_units" label="Credited" textAlign="right" render={(m: CustomerMeter) => units(m.credited_units, m)} />
      <BalanceField label="Balance" sortBy="balance" />
      <DateTimeField source="created_at" label="Since" />
    </Datagrid>
  );
}

function CustomerMeterList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (m: CustomerMeter) => m.customer.email,
        secondaryText: (m: CustomerMeter) =>
          facts(m.meter.name, `used ${units(m.consumed_units, m)}`, `credited ${units(m.credited_units, m)}`),
        tertiaryText: (m: CustomerMeter) => units(m.balance, m),
      }}
      filters={metaFilters("customer-meters", [])}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={[
        "id",
        "customer.email",
        "customer_id",
        "meter.name",
        "meter_id",
        "consumed_units",
        "credited_units",
        "balance",
        "created_at",
      ]}
      grid={false}
    >
      <CustomerMeterColumns />
    </ResourceList>
  );
}

function Title() {
  const m = useRecordContext<CustomerMeter>();
  return <>{m ? `${m.meter.name} — ${m.customer.email}` : "Customer meter"}</>;
}

function CustomerMeterShow() {
  return (
    <Show title={<Title />}>
      <SimpleShowLayout>
        <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
        <LinkField label="Meter" source="meter_id" reference="meters" text="meter.name" />
        <FunctionField label="Consumed units" render={(m: CustomerMeter) => units(m.consumed_units, m)} />
        <FunctionField label="Credited units" render={(m: CustomerMeter) => units(m.credited_units, m)} />
        <BalanceField label="Balance" />
        <FunctionField
          label="Events"
          render={(m: CustomerMeter) => (
            <Link to={`/events?filter=${encodeURIComponent(JSON.stringify({ customer_id: [m.customer_id], meter_id: m.meter_id }))}`}>
              This customer's events counted by this meter
            </Link>
          )}
        />
        {recordDetails({ created: "Since", metadata: false })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: CustomerMeterList, show: CustomerMeterShow, icon: DataUsageIcon };
