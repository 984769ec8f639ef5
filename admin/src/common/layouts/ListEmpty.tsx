// What a list shows with no records: on a fresh organization (no filter but the list's defaults)
// what the resource is for and a button to make the first one; under filters, that nothing
// matches and a way back to the defaults. Its words are the resource's (i18n/resources.ts).
import { Box, Button, Typography } from "@mui/material";
import { useCreatePath, useListContext, useResourceContext, useResourceDefinition, useTranslate } from "react-admin";
import { Link } from "react-router-dom";
import InboxIcon from "@mui/icons-material/Inbox";

function sameFilters(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

export function ListEmpty({ defaults = {}, create = true }: { defaults?: Record<string, unknown>; create?: boolean }) {
  const resource = useResourceContext() ?? "";
  const { hasCreate, icon: Icon = InboxIcon } = useResourceDefinition();
  const { filterValues = {}, setFilters } = useListContext();
  const translate = useTranslate();
  const createPath = useCreatePath();
  if (!sameFilters(filterValues, defaults)) {
    return (
      <Box sx={{ p: 2, display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="body2">{translate("ra.navigation.no_filtered_results")}</Typography>
        <Button size="small" onClick={() => setFilters(defaults, [])}>
          {translate("ra.navigation.clear_filters")}
        </Button>
      </Box>
    );
  }
  const invite = translate(`resources.${resource}.invite`, { _: "" });
  return (
    <Box data-testid="list-empty" sx={{ textAlign: "center", py: 6, px: 2, maxWidth: 560, mx: "auto" }}>
      <Icon sx={{ fontSize: 56, color: "text.secondary" }} aria-hidden />
      <Typography component="h2" variant="h6" sx={{ mt: 1 }}>
        {translate(`resources.${resource}.empty`, { _: translate("ra.page.empty") })}
      </Typography>
      {invite ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {invite}
        </Typography>
      ) : null}
      {create && hasCreate ? (
        // a plain button: react-admin's CreateButton turns into a floating one on phones, over the toolbar's
        <Button variant="contained" component={Link} to={createPath({ resource, type: "create" })} sx={{ mt: 2 }}>
          {translate(`resources.${resource}.action.create`, { _: translate("ra.action.create") })}
        </Button>
      ) : null}
    </Box>
  );
}
