// Event types: the names the organization's ingested events use, how often and when they were
// seen, and the label each shows (the merchant renames it here; a 422 lands on its field). The
// platform's own (system) names have fixed labels and are left out.
import { useState } from "react";
import {
  Button,
  Datagrid,
  List,
  NumberField,
  SimpleList,
  SaveButton,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  required,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
} from "react-admin";
import { Dialog, DialogContent, DialogTitle, useMediaQuery, type Theme } from "@mui/material";
import EditIcon from "@mui/icons-material/Edit";
import LabelIcon from "@mui/icons-material/Label";
import type { EventTypeWithStats } from "../../api";
import { DateTimeField } from "../../common/fields";
import { formatDateTime } from "../../common/format";
import { facts } from "../../common/layouts";
import { CheckedTextFilter } from "../../common/filterErrors";
import { submissionErrors } from "../../common/submit";

/** A row's label in a dialog: the label and the metadata path of a dynamic one (blank for none). */
function LabelButton() {
  const type = useRecordContext<EventTypeWithStats & { id: string }>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!type) return null;
  const titleId = `event-type-${type.id}-title`;
  return (
    <>
      <Button label="Rename" onClick={() => setOpen(true)}>
        <EditIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>Label of {type.name}</DialogTitle>
        <DialogContent>
          <SimpleForm
            record={{ id: type.id, label: type.label, label_property_selector: type.label_property_selector ?? "" }}
            toolbar={
              <Toolbar>
                <SaveButton label="Save label" alwaysEnable />
              </Toolbar>
            }
            onSubmit={async (values: Record<string, unknown>) => {
              try {
                // Both fields always: a selector left out of the body is cleared.
                const data = { label: values.label, label_property_selector: values.label_property_selector || null };
                await dataProvider.update("event-types", { id: type.id, data, previousData: { id: type.id } });
                notify("Label saved", { type: "success" });
                setOpen(false);
                refresh();
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            <TextInput source="label" validate={required()} fullWidth />
            <TextInput
              source="label_property_selector"
              label="Label from metadata (optional)"
              helperText="a path in the event's metadata, e.g. metadata.subject"
              fullWidth
            />
          </SimpleForm>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** An event type as the list holds it (the data provider gives each its name as id). */
type EventTypeRow = EventTypeWithStats & { id: string };

const filters = [<CheckedTextFilter key="query" source="query" label="Name or label" alwaysOn />];

export function EventTypeList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  return (
    <List filters={filters} filter={{ source: "user" }} sort={{ field: "last_seen", order: "DESC" }} exporter={false}>
      {narrow ? (
        <SimpleList<EventTypeRow>
          rowClick={false}
          primaryText={(t) => t.label}
          secondaryText={(t) => facts(t.name, `last seen ${formatDateTime(t.last_seen)}`)}
          tertiaryText={(t) => `${t.occurrences}×`}
          rightIcon={() => <LabelButton />}
        />
      ) : (
        <Datagrid rowClick={false} bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="label" />
          <TextField source="label_property_selector" label="Label from metadata" emptyText="—" sortable={false} />
          <NumberField source="occurrences" />
          <DateTimeField source="first_seen" label="First seen" />
          <DateTimeField source="last_seen" label="Last seen" />
          <LabelButton />
        </Datagrid>
      )}
    </List>
  );
}

export default { list: EventTypeList, icon: LabelIcon, recordRepresentation: "label" };
