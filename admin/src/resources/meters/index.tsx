// Meters: which events count (a filter over event names and metadata), how they add up (count,
// sum, max, min, avg, unique of a property), the unit that sets how quantities are shown (plain
// units, per million tokens, or a custom label per a multiplier), a chart or table of the
// quantities over time, and the customers' usage of it.
import { useEffect, useMemo, useState } from "react";
import {
  ArrayInput,
  BooleanField,
  NumberInput,
  Pagination,
  ReferenceManyField,
  FormDataConsumer,
  FunctionField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleFormIterator,
  Tab,
  TabbedShowLayout,
  TextField,
  TextInput,
  minValue,
  required,
  useRecordContext,
} from "react-admin";
import {
  Alert,
  Box,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import SpeedIcon from "@mui/icons-material/Speed";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Filter, FilterClause, Meter, MeterQuantities } from "../../api";
import { DateTimeField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { MetadataInput } from "../../common/inputs";
import { RecordCreate, RecordEdit, ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { formatMeterQuantity, humanize, meterUnitFormat, utcTitle } from "../../common/format";
import { queryIssue } from "../../common/filterErrors";
import { CustomerMeterColumns } from "../customer-meters";
import { call } from "../../dataProvider/request";
import { ConfirmAction } from "../../common/ConfirmAction";

const UNITS = [
  { id: "scalar", name: "Units" },
  { id: "token", name: "Tokens (shown per 1M)" },
  { id: "custom", name: "Custom" },
];
const OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"];
const OPERATOR_TEXT: Record<string, string> = {
  eq: "=",
  ne: "≠",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  like: "contains",
  not_like: "does not contain",
};
const FUNCS = ["count", "sum", "max", "min", "avg", "unique"];

function filterText(f: Filter): string {
  const parts = f.clauses.map((c) =>
    "conjunction" in c
      ? `(${filterText(c)})`
      : `${(c as FilterClause).property} ${OPERATOR_TEXT[(c as FilterClause).operator] ?? (c as FilterClause).operator} ${JSON.stringify((c as FilterClause).value)}`,
  );
  return parts.join(` ${f.conjunction.toUpperCase()} `) || "every event";
}

export function aggregationText(m: Meter): string {
  const a = m.aggregation;
  return a.func === "count" ? "Count of events" : `${humanize(a.func)} of ${"property" in a ? a.property : "?"}`;
}

/** The unit in words: Units, Tokens (shown per 1M), or the custom label and its multiplier. */
export function unitText(m: Meter): string {
  if (m.unit === "token") return "Tokens (shown per 1M)";
  if (m.unit === "custom")
    return m.custom_multiplier && m.custom_multiplier > 1
      ? `${m.custom_label} (shown per ${m.custom_multiplier.toLocaleString()})`
      : `${m.custom_label}`;
  return "Units";
}

function MeterList() {
  return (
    <ResourceList
      filters={metaFilters("meters", ["query", "is_archived"])}
      filterDefaultValues={{ is_archived: false }}
      sort={{ field: "created_at", order: "DESC" }}
    >
      <TextField source="name" />
      <FunctionField label="Counts" render={(m: Meter) => aggregationText(m)} />
      <FunctionField label="Unit" render={(m: Meter) => unitText(m)} />
      <FunctionField label="Events" render={(m: Meter) => filterText(m.filter)} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

const INTERVALS = ["hour", "day", "week", "month"] as const;
type Interval = (typeof INTERVALS)[number];
const WINDOWS = [1, 7, 30, 90, 365];
// days, weeks and months start at the reader's midnight (the API's `timezone` extension)
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The window asked for: the last N days, or the days typed (From's midnight to the end of To, local time). */
function windowOf(days: number | "custom", from: string, to: string): { start: Date; end: Date } | null {
  if (days !== "custom") {
    const end = new Date();
    return { start: new Date(end.getTime() - days * 86_400_000), end };
  }
  if (!from || !to) return null;
  return { start: new Date(`${from}T00:00:00`), end: new Date(`${to}T23:59:59.999`) };
}

function bucketLabel(iso: string, interval: Interval): string {
  return new Date(iso).toLocaleDateString(
    undefined,
    interval === "hour"
      ? { hour: "2-digit", day: "numeric", month: "short" }
      : { day: "numeric", month: "short", ...(interval === "month" ? { year: "numeric" } : {}) },
  );
}

/**
 * The meter's quantities over a chosen window and interval, as a bar chart or a table, and their
 * total. The server's refusal of a start, an end or an interval shows under that field.
 */
export function QuantitiesChart() {
  const meter = useRecordContext<Meter>();
  const [interval, setInterval] = useState<Interval>("day");
  const [days, setDays] = useState<number | "custom">(30);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [view, setView] = useState<"chart" | "table">("chart");
  const [data, setData] = useState<MeterQuantities | null>(null);
  const [error, setError] = useState<Error | null>(null);
  // "now" is read when the window is chosen, not at every render
  const range = useMemo(() => windowOf(days, from, to), [days, from, to]);
  const startIso = range && !Number.isNaN(range.start.getTime()) ? range.start.toISOString() : null;
  const endIso = range && !Number.isNaN(range.end.getTime()) ? range.end.toISOString() : null;
  useEffect(() => {
    if (!meter || !startIso || !endIso) return;
    let live = true;
    setError(null);
    call<MeterQuantities>("GET", "/v1/meters/{id}/quantities", {
      path: { id: meter.id },
      query: { start_timestamp: startIso, end_timestamp: endIso, interval, timezone: TIME_ZONE },
    }).then(
      (q) => live && setData(q),
      (e: Error) => {
        if (!live) return;
        setError(e);
        setData(null);
      },
    );
    return () => {
      live = false;
    };
  }, [meter, interval, startIso, endIso]);
  if (!meter) return null;
  const startError = queryIssue(error, "start_timestamp");
  const endError = queryIssue(error, "end_timestamp");
  const intervalError = queryIssue(error, "interval");
  const otherError = error && !startError && !endError && !intervalError ? error.message : null;
  // The chart's bars are in the meter's unit (per 1M tokens, per a custom multiplier).
  const { scale, label: unitLabel } = meterUnitFormat(meter);
  const rows = data?.quantities.map((q) => ({ ...q, label: bucketLabel(q.timestamp, interval), shown: q.quantity / scale })) ?? [];
  return (
    <Box>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mb: 2, alignItems: "flex-start" }}>
        <MuiTextField
          select
          size="small"
          sx={{ width: 180 }}
          label="Interval"
          value={interval}
          onChange={(e) => setInterval(e.target.value as Interval)}
          error={!!intervalError}
          helperText={intervalError}
        >
          {INTERVALS.map((i) => (
            <MenuItem key={i} value={i}>
              {humanize(i)}
            </MenuItem>
          ))}
        </MuiTextField>
        <MuiTextField
          select
          size="small"
          sx={{ width: 180 }}
          label="Window"
          value={days}
          onChange={(e) => setDays(e.target.value === "custom" ? "custom" : Number(e.target.value))}
        >
          {WINDOWS.map((d) => (
            <MenuItem key={d} value={d}>
              Last {d} day{d > 1 ? "s" : ""}
            </MenuItem>
          ))}
          <MenuItem value="custom">Dates…</MenuItem>
        </MuiTextField>
        {days === "custom" ? (
          <>
            <MuiTextField
              size="small"
              sx={{ width: 180 }}
              type="date"
              label="From"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              error={!!startError}
              helperText={startError}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <MuiTextField
              size="small"
              sx={{ width: 180 }}
              type="date"
              label="To"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              error={!!endError}
              helperText={endError}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </>
        ) : null}
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_e, v: "chart" | "table" | null) => v && setView(v)}
          aria-label="Show as"
        >
          <ToggleButton value="chart">Chart</ToggleButton>
          <ToggleButton value="table">Table</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {otherError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {otherError}
        </Alert>
      ) : null}
      {days === "custom" && !range ? (
        <Typography variant="body2" color="text.secondary">
          Choose the first and the last day.
        </Typography>
      ) : null}
      {data ? (
        <>
          <Typography variant="subtitle1" gutterBottom data-testid="quantities-total">
            Total: {formatMeterQuantity(data.total, meter)}
          </Typography>
          {view === "table" ? (
            <Box>
              <Table size="small" aria-label="Quantities">
                <TableHead>
                  <TableRow>
                    <TableCell>{humanize(interval)} starting</TableCell>
                    <TableCell align="right">Quantity</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((q) => (
                    <TableRow key={q.timestamp}>
                      <TableCell>
                        <time dateTime={q.timestamp} title={utcTitle(q.timestamp)}>
                          {q.label}
                        </time>
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {formatMeterQuantity(q.quantity, meter)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          ) : data.quantities.some((q) => q.quantity) ? (
            <Box sx={{ width: "100%", height: 260 }}>
              <ResponsiveContainer>
                <BarChart data={rows}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="label" minTickGap={16} />
                  <YAxis allowDecimals={scale > 1} />
                  <Tooltip />
                  <Bar dataKey="shown" name={unitLabel ? `Quantity (${unitLabel})` : "Quantity"} fill="#1976d2" />
                </BarChart>
              </ResponsiveContainer>
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              No usage in this window yet. Events ingested for this meter's filter show here.
            </Typography>
          )}
        </>
      ) : null}
    </Box>
  );
}

function ArchiveButton() {
  const m = useRecordContext<Meter>();
  if (!m) return null;
  const archive = !m.archived_at;
  return (
    <ConfirmAction
      label={archive ? "Archive" : "Unarchive"}
      title={`${archive ? "Archive" : "Unarchive"} ${m.name}?`}
      content={archive ? "It stops counting new events." : "It counts events again."}
      run={() => call("PATCH", "/v1/meters/{id}", { path: { id: m.id }, body: { is_archived: archive } })}
      success={archive ? "Meter archived" : "Meter unarchived"}
    />
  );
}

function MeterShow() {
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

function Form() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} fullWidth />
      <Typography variant="subtitle2">Events counted</Typography>
      <SelectInput
        source="filter.conjunction"
        label="Match"
        choices={[
          { id: "and", name: "All of the conditions" },
          { id: "or", name: "Any of the conditions" },
        ]}
        defaultValue="and"
        validate={required()}
      />
      <ArrayInput source="filter.clauses" label="Conditions">
        <SimpleFormIterator inline>
          <TextInput source="property" label="Property" helperText="name, or metadata.<key>" validate={required()} />
          <SelectInput source="operator" choices={OPERATORS.map((o) => ({ id: o, name: OPERATOR_TEXT[o] }))} validate={required()} />
          <TextInput source="value" label="Value" helperText="Numbers and true/false are read as such" validate={required()} />
        </SimpleFormIterator>
      </ArrayInput>
      <Typography variant="subtitle2">How they add up</Typography>
      <SelectInput
        source="aggregation.func"
        label="Aggregation"
        choices={FUNCS.map((f) => ({ id: f, name: humanize(f) }))}
        defaultValue="count"
        validate={required()}
      />
      <FormDataConsumer>
        {({ formData }) =>
          formData.aggregation?.func && formData.aggregation.func !== "count" ? (
            <TextInput source="aggregation.property" label="Property" helperText="e.g. metadata.tokens" validate={required()} />
          ) : null
        }
      </FormDataConsumer>
      <Typography variant="subtitle2">Unit</Typography>
      <SelectInput
        source="unit"
        label="Unit"
        choices={UNITS}
        defaultValue="scalar"
        validate={required()}
        helperText="How quantities and prices are shown"
      />
      <FormDataConsumer>
        {({ formData }) =>
          formData.unit === "custom" ? (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>
              <TextInput source="custom_label" label="Unit label" helperText="e.g. gigabyte, or 1K requests" validate={required()} />
              <NumberInput
                source="custom_multiplier"
                label="Shown per"
                helperText="e.g. 1000: per 1000 units"
                min={1}
                step={1}
                validate={minValue(1)}
              />
            </Box>
          ) : null
        }
      </FormDataConsumer>
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & {
  filter?: { conjunction: string; clauses?: { property: string; operator: string; value: unknown }[] };
  aggregation?: { func: string; property?: string };
};

function typed(v: unknown): unknown {
  if (typeof v !== "string") return v;
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v === "true" || v === "false") return v === "true";
  return v;
}

function body(data: Values): Record<string, unknown> {
  const { filter, aggregation, ...rest } = data;
  // Only a custom unit has a label and a multiplier: leaving it clears them.
  const custom = rest.unit === "custom";
  return {
    ...rest,
    custom_label: custom ? rest.custom_label : null,
    custom_multiplier: custom ? (rest.custom_multiplier ?? null) : null,
    filter: {
      conjunction: filter?.conjunction ?? "and",
      clauses: (filter?.clauses ?? []).map((c) => ("conjunction" in c ? c : { ...c, value: typed(c.value) })),
    },
    aggregation: aggregation?.func === "count" ? { func: "count" } : aggregation,
  };
}

function MeterCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}

function MeterEdit() {
  return (
    <RecordEdit<Meter, Values> transform={body}>
      <Form />
    </RecordEdit>
  );
}

export default { list: MeterList, show: MeterShow, create: MeterCreate, edit: MeterEdit, icon: SpeedIcon, recordRepresentation: "name" };
