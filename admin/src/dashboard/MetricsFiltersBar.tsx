// The metrics' filters as a bar of fields (Home's and the metrics page's): from, to, interval (the
// intervals the range does not allow are disabled) and products. A bad range is said on its field.
// A date changes the range as it is typed, once it is a whole date the metrics can cover.
import { useEffect, useRef, useState } from "react";
import { useGetList } from "react-admin";
import { Autocomplete, Box, MenuItem, TextField } from "@mui/material";
import type { TimeInterval } from "../api";
import { INTERVALS, type MetricsFilters } from "./useMetricsFilters";

export function MetricsFiltersBar({ filters }: { filters: MetricsFilters }) {
  const { data: products } = useGetList("products", {
    pagination: { page: 1, perPage: 100 },
    sort: { field: "name", order: "ASC" },
    filter: { is_archived: false },
  });
  const options: { id: string; name: string }[] = (products ?? []).map((p) => ({ id: String(p.id), name: String(p.name) }));
  const chosen = options.filter((o) => filters.productIds.includes(o.id));
  const backwards = !Number.isNaN(filters.days) && filters.days < 0;
  return (
    <Box
      component="form"
      role="search"
      aria-label="Metrics filters"
      onSubmit={(e) => e.preventDefault()}
      sx={{ display: "flex", flexWrap: "wrap", gap: 1.5, alignItems: "flex-start", mb: 2 }}
    >
      <DateField
        label="From"
        value={filters.start}
        floor={filters.minDate}
        min={filters.minDate}
        max={filters.end}
        onChange={(start) => filters.set({ start })}
      />
      <DateField
        label="To"
        value={filters.end}
        floor={filters.minDate}
        min={filters.start}
        onChange={(end) => filters.set({ end })}
        error={backwards ? "The end comes before the start." : undefined}
      />
      <TextField
        select
        label="Interval"
        size="small"
        value={filters.interval}
        onChange={(e) => filters.set({ interval: e.target.value as TimeInterval })}
        sx={{ width: { xs: "100%", sm: 140 } }}
      >
        {INTERVALS.map((i) => (
          <MenuItem key={i.id} value={i.id} disabled={!filters.allows(i.id)}>
            {i.name}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        multiple
        size="small"
        options={options}
        value={chosen}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_e, value) => filters.set({ productIds: value.map((v) => v.id) })}
        renderInput={(params) => <TextField {...params} label="Products" placeholder={chosen.length ? undefined : "All products"} />}
        sx={{ width: { xs: "100%", sm: 320 } }}
      />
    </Box>
  );
}

/**
 * A date typed segment by segment. The field keeps what is typed: a value that waited for the URL
 * would be put back mid-typing, and so would the range catching up late with a date this field
 * sent. It passes on only a date from `floor` on, so the years typed through (0002, 0020, 0202)
 * ask for nothing; on leaving, the field shows the last date it passed on, or the range's.
 */
function DateField(props: {
  label: string;
  value: string;
  floor: string;
  min?: string;
  max?: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useState(props.value);
  const sent = useRef<string[]>([]);
  useEffect(() => {
    if (!sent.current.includes(props.value)) setDraft(props.value);
  }, [props.value]);
  return (
    <TextField
      label={props.label}
      type="date"
      size="small"
      value={draft}
      onChange={(e) => {
        const value = e.target.value;
        setDraft(value);
        if (value && value >= props.floor && value !== (sent.current.at(-1) ?? props.value)) {
          sent.current.push(value);
          props.onChange(value);
        }
      }}
      onBlur={() => {
        setDraft(sent.current.at(-1) ?? props.value);
        sent.current = [];
      }}
      error={Boolean(props.error)}
      helperText={props.error}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: props.min, max: props.max } }}
      sx={{ width: { xs: "calc(50% - 6px)", sm: 170 } }}
    />
  );
}
