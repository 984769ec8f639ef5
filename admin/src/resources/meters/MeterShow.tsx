import { BooleanField, Pagination, ReferenceManyField, FunctionField, Show, Tab, TabbedShowLayout, TextField } from "react-admin";
import type { Meter } from "../../api";
import { ShowActions, recordDetails } from "../../common/layouts";
import { CustomerMeterColumns } from "../customer-meters";
import { ArchiveButton } from "./ArchiveButton";
import { QuantitiesChart } from "./QuantitiesChart";
import { filterText, aggregationText, unitText } from "./meterText";

export function MeterShow() {
  return (
    <Show
      actions={
        <ShowActions>
          <ArchiveButton />
        </ShowActions>
      }
    >
      <TabbedShowLayout>
        <Tab label="Usage">
          <QuantitiesChart />
        </Tab>
        <Tab label="Customers" path="customers">
          <ReferenceManyField
            reference="customer-meters"
            target="meter_id"
            label={false}
            sort={{ field: "consumed_units", order: "DESC" }}
            pagination={<Pagination />}
          >
            <CustomerMeterColumns meter={false} />
          </ReferenceManyField>
        </Tab>
        <Tab label="Definition" path="definition">
          <TextField source="name" />
          <FunctionField label="Events counted" render={(m: Meter) => filterText(m.filter)} />
          <FunctionField label="Aggregation" render={(m: Meter) => aggregationText(m)} />
          <FunctionField label="Unit" render={(m: Meter) => unitText(m)} />
          <FunctionField label="Archived" render={(m: Meter) => <BooleanField record={{ id: m.id, a: !!m.archived_at }} source="a" />} />
          {recordDetails()}
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}
