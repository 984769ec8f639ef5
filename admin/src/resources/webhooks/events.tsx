// The webhook event types, chosen by group (checkout, customer, order…), each group with a
// select-all box.
import { useInput } from "react-admin";
import { Box, Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel } from "@mui/material";
import { enumValues } from "../../common/generic";
import { humanize } from "../../common/format";

export const EVENT_TYPES: readonly string[] = enumValues("webhooks-endpoints", "events") ?? [];

export function eventGroups(types: readonly string[] = EVENT_TYPES): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const t of types) {
    const g = t.slice(0, t.lastIndexOf("."));
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  return [...groups.entries()];
}

export function EventsInput({ source = "events" }: { source?: string }) {
  const { field, fieldState } = useInput<string[]>({
    source,
    defaultValue: [],
    validate: (v: string[] | undefined) => (v?.length ? undefined : "Choose at least one event"),
  });
  const chosen = new Set(field.value ?? []);
  const set = (types: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const t of types) {
      if (on) next.add(t);
      else next.delete(t);
    }
    field.onChange(EVENT_TYPES.filter((t) => next.has(t)));
  };
  return (
    <FormControl component="fieldset" error={!!fieldState.error} sx={{ my: 1 }}>
      <FormLabel component="legend">Events</FormLabel>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", md: "1fr 1fr 1fr" }, gap: 1 }}>
        {eventGroups().map(([group, types]) => {
          const all = types.every((t) => chosen.has(t));
          const some = types.some((t) => chosen.has(t));
          return (
            <Box key={group} sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1 }}>
              <FormControlLabel
                control={<Checkbox checked={all} indeterminate={some && !all} onChange={(e) => set(types, e.target.checked)} />}
                label={<strong>{humanize(group)}</strong>}
              />
              <FormGroup sx={{ pl: 2 }}>
                {types.map((t) => (
                  <FormControlLabel
                    key={t}
                    control={<Checkbox size="small" checked={chosen.has(t)} onChange={(e) => set([t], e.target.checked)} />}
                    label={t}
                  />
                ))}
              </FormGroup>
            </Box>
          );
        })}
      </Box>
      {fieldState.error ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
    </FormControl>
  );
}
