// Billing test clocks (sandbox): a clock holds some customers at a frozen time; advancing it runs
// their subscriptions' renewals, dunning and endings as if that time had passed.
import { submissionErrors } from "../../common/submit";
import { useState } from "react";
import {
  AutocompleteInput,
  Create,
  DateTimeInput,
  FunctionField,
  ReferenceInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  SaveButton,
  required,
  useNotify,
  useRecordContext,
  useRefresh,
  Button,
  ReferenceArrayField,
  SingleFieldList,
  ChipField,
} from "react-admin";
import { Box, Dialog, DialogContent, DialogTitle, Typography } from "@mui/material";
import ScheduleIcon from "@mui/icons-material/Schedule";
import FastForwardIcon from "@mui/icons-material/FastForward";
import PersonAddIcon from "@mui/icons-material/PersonAdd";
import type { TestClock } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { call } from "../../dataProvider/request";

const STEPS: [string, (d: Date) => Date][] = [
  ["+1 day", (d) => new Date(d.getTime() + 86_400_000)],
  ["+1 week", (d) => new Date(d.getTime() + 7 * 86_400_000)],
  [
    "+1 month",
    (d) => {
      const n = new Date(d);
      n.setUTCMonth(n.getUTCMonth() + 1);
      return n;
    },
  ],
  [
    "+1 year",
    (d) => {
      const n = new Date(d);
      n.setUTCFullYear(n.getUTCFullYear() + 1);
      return n;
    },
  ],
];

function AdvanceButtons() {
  const clock = useRecordContext<TestClock>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!clock) return null;
  const advance = async (to: Date) => {
    setBusy(true);
    try {
      await call("POST", "/v1/test-clocks/{id}/advance", { path: { id: clock.id }, body: { frozen_time: to.toISOString() } });
      notify(`Advancing to ${to.toLocaleString()}…`, { type: "info" });
      // the clock advances in the background; follow it until it is ready again
      for (let i = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const c = await call<TestClock>("GET", "/v1/test-clocks/{id}", { path: { id: clock.id } });
        if (c.status === "ready") break;
      }
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      {STEPS.map(([label, next]) => (
        <Button
          key={label}
          label={label}
          disabled={busy || clock.status !== "ready"}
          onClick={() => void advance(next(new Date(clock.frozen_time)))}
          variant="outlined"
        >
          <FastForwardIcon />
        </Button>
      ))}
    </Box>
  );
}

function AttachCustomerButton() {
  const clock = useRecordContext<TestClock>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!clock) return null;
  return (
    <>
      <Button label="Attach customer" onClick={() => setOpen(true)}>
        <PersonAddIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="attach-title" fullWidth maxWidth="sm">
        <DialogTitle id="attach-title">Attach a customer to this clock</DialogTitle>
        <DialogContent>
          <SimpleForm
            record={{}}
            toolbar={
              <Toolbar>
                <SaveButton label="Attach" alwaysEnable />
              </Toolbar>
            }
            onSubmit={async (v: Record<string, unknown>) => {
              try {
                await call("POST", "/v1/test-clocks/{id}/customers", { path: { id: clock.id }, body: { customer_id: v.customer_id } });
                notify("Customer attached", { type: "success" });
                setOpen(false);
                refresh();
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            <ReferenceInput source="customer_id" reference="customers">
              <AutocompleteInput label="Customer" optionText="email" validate={required()} filterToQuery={(q: string) => ({ q })} />
            </ReferenceInput>
          </SimpleForm>
        </DialogContent>
      </Dialog>
    </>
  );
}

function TestClockList() {
  return (
    <ResourceList exportFields={false}>
      <TextField source="name" emptyText="—" sortable={false} />
      <DateTimeField source="frozen_time" label="Clock time" />
      <EnumField source="status" />
      <FunctionField label="Customers" render={(c: TestClock) => c.customer_ids.length} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

function TestClockShow() {
  return (
    <Show
      actions={
        <ShowActions remove>
          <AttachCustomerButton />
        </ShowActions>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" emptyText="—" />
        <DateTimeField source="frozen_time" label="Clock time" />
        <EnumField source="status" />
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            Advance
          </Typography>
          <AdvanceButtons />
        </Box>
        <ReferenceArrayField source="customer_ids" reference="customers" label="Customers">
          <SingleFieldList linkType="show" empty={<Typography variant="body2">No customers attached yet.</Typography>}>
            <ChipField source="email" />
          </SingleFieldList>
        </ReferenceArrayField>
        {recordDetails({ created: false, metadata: false })}
      </SimpleShowLayout>
    </Show>
  );
}

function TestClockCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ frozen_time: new Date().toISOString() }}>
        <TextInput source="name" />
        <DateTimeInput source="frozen_time" label="Start at" validate={required()} />
      </SimpleForm>
    </Create>
  );
}

export default { list: TestClockList, show: TestClockShow, create: TestClockCreate, icon: ScheduleIcon, recordRepresentation: "name" };
