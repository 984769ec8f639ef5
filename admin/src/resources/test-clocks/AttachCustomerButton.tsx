import { submissionErrors } from "../../common/submit";
import { useState } from "react";
import {
  AutocompleteInput,
  ReferenceInput,
  SimpleForm,
  Toolbar,
  SaveButton,
  required,
  useNotify,
  useDataProvider,
  useRecordContext,
  useRefresh,
  Button,
} from "react-admin";
import { Dialog, DialogContent, DialogTitle } from "@mui/material";
import PersonAddIcon from "@mui/icons-material/PersonAdd";
import type { TestClock } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

export function AttachCustomerButton() {
  const clock = useRecordContext<TestClock>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
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
            onSubmit={async (v: { customer_id?: string }) => {
              try {
                await dataProvider.attachTestClockCustomer(clock.id, v.customer_id);
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
