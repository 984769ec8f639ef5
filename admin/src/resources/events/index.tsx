// Events: what was ingested (source user) and what the platform wrote (source system), newest
// first; filtered by name, source, customer, meter, time range and a filter tree as a meter's. A
// 422 about a filter shows under that filter. The show view has the event's metadata and customer.
import { useEffect, useState } from "react";
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  FunctionField,
  ReferenceInput,
  Show,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  useRecordContext,
} from "react-admin";
import { Typography } from "@mui/material";
import TimelineIcon from "@mui/icons-material/Timeline";
import type { Event, EventName } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { formatDateTime, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { CheckedTextFilter, DateTimeFilter, ShowsErrors, useServerFilterError } from "../../common/filterErrors";
import { ResourceList, recordDetails, facts } from "../../common/layouts";
import { LinkField } from "../../common/references";
import type { BorealisDataProvider } from "../../dataProvider";

/** The organization's event names (most recently seen first), as the name filter's choices. */
function useEventNames(): { id: string; name: string }[] {
  const [names, setNames] = useState<EventName[]>([]);
  const dataProvider = useDataProvider<BorealisDataProvider>();
  useEffect(() => {
    let live = true;
    dataProvider.getEventNames().then(
      ({ data }) => live && setNames(data),
      () => live && setNames([]),
    );
    return () => {
      live = false;
    };
  }, [dataProvider]);
  // a name written by the platform and by the merchant is one choice
  const unique = [...new Set(names.map((n) => n.name))];
  return unique.map((n) => ({ id: n, name: n }));
}

function NameFilter({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  const choices = useEventNames();
  useServerFilterError(source);
  return (
    <ShowsErrors>
      <AutocompleteArrayInput source={source} label={label} choices={choices} sx={{ minWidth: 220 }} />
    </ShowsErrors>
  );
}

function MeterFilter({ source, label }: { source: string; label: string }) {
  useServerFilterError(source);
  return (
    <ShowsErrors>
      <ReferenceInput source={source} reference="meters">
        <AutocompleteInput label={label} optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 220 }} />
      </ReferenceInput>
    </ShowsErrors>
  );
}

const filters = [
  <NameFilter key="name" source="name" label="Name" alwaysOn />,
  ...metaFilters("events", ["source"], ["source", "customer_id", "external_customer_id"]),
  <DateTimeFilter key="start_timestamp" source="start_timestamp" label="From" alwaysOn />,
  <DateTimeFilter key="end_timestamp" source="end_timestamp" label="Until" alwaysOn />,
  <MeterFilter key="meter_id" source="meter_id" label="Counted by meter" />,
  <CheckedTextFilter
    key="filter"
    source="filter"
    label="Filter (JSON, as a meter's)"
    helperText='e.g. {"conjunction":"and","clauses":[{"property":"tokens","operator":"gt","value":100}]}'
    sx={{ minWidth: 320 }}
  />,
];

function customerText(e: Event): string {
  return e.customer?.email ?? e.external_customer_id ?? "—";
}

function metadataText(e: Event): string {
  const entries = Object.entries(e.metadata ?? {});
  if (!entries.length) return "—";
  const text = entries.map(([k, v]) => `${k}=${typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)}`).join(", ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function EventList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (e: Event) => e.name,
        secondaryText: (e: Event) => facts(customerText(e), humanize(e.source), formatDateTime(e.timestamp)),
      }}
      filters={filters}
      sort={{ field: "timestamp", order: "DESC" }}
      create={false}
      exportFields={["id", "timestamp", "name", "source", "customer_id", "customer.email", "external_customer_id", "metadata"]}
    >
      <DateTimeField source="timestamp" label="Time" />
      <TextField source="name" sortable={false} />
      <EnumField source="source" sortable={false} />
      <FunctionField label="Customer" sortable={false} render={(e: Event) => customerText(e)} />
      <FunctionField
        label="Metadata"
        sortable={false}
        render={(e: Event) => (
          <Typography component="span" variant="body2" sx={{ fontFamily: "monospace", fontSize: "0.8rem" }}>
            {metadataText(e)}
          </Typography>
        )}
      />
    </ResourceList>
  );
}

function EventTitle() {
  const e = useRecordContext<Event>();
  return <>{e ? `Event ${e.name}` : "Event"}</>;
}

function EventShow() {
  return (
    <Show title={<EventTitle />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <EnumField source="source" />
        <DateTimeField source="timestamp" label="Time" />
        <LinkField label="Customer" source="customer.id" reference="customers" text="customer.email" />
        <TextField source="external_customer_id" label="External customer id" emptyText="—" />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: EventList, show: EventShow, icon: TimelineIcon, recordRepresentation: "name" };
