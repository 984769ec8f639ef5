// The scopes a new access token holds: a row per resource with its read and write scope, and
// shortcuts for the usual choices (everything, read only, none).
import { Box, Button, Checkbox, FormHelperText, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { ALL_SCOPES, READ_SCOPES, SCOPE_GROUPS } from "./scopes";

export function ScopePicker({ value, onChange }: { value: string[]; onChange: (scopes: string[]) => void }) {
  const toggle = (scope: string, on: boolean) =>
    onChange(on ? ALL_SCOPES.filter((s) => s === scope || value.includes(s)) : value.filter((s) => s !== scope));
  const cell = (scope: string | undefined, label: string) =>
    scope ? (
      <Checkbox
        size="small"
        checked={value.includes(scope)}
        onChange={(e) => toggle(scope, e.target.checked)}
        slotProps={{ input: { "aria-label": label } }}
      />
    ) : null;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: "100%" }} aria-describedby="scopes-help">
      <Typography component="legend" variant="subtitle2">
        Scopes
      </Typography>
      <FormHelperText id="scopes-help">What the token may read and change. {value.length} chosen.</FormHelperText>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", my: 1 }}>
        <Button size="small" onClick={() => onChange([...ALL_SCOPES])}>
          Everything
        </Button>
        <Button size="small" onClick={() => onChange([...READ_SCOPES])}>
          Read only
        </Button>
        <Button size="small" onClick={() => onChange([])}>
          None
        </Button>
      </Box>
      <Box sx={{ maxHeight: 320, overflowY: "auto", maxWidth: 420 }} tabIndex={0} role="region" aria-label="Scopes by resource">
        <Table size="small" stickyHeader aria-label="Scopes">
          <TableHead>
            <TableRow>
              <TableCell>Resource</TableCell>
              <TableCell padding="checkbox">Read</TableCell>
              <TableCell padding="checkbox">Write</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {SCOPE_GROUPS.map((g) => (
              <TableRow key={g.name}>
                <TableCell>{g.label}</TableCell>
                <TableCell padding="checkbox">{cell(g.read, `${g.label}: read`)}</TableCell>
                <TableCell padding="checkbox">{cell(g.write, `${g.label}: write`)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
