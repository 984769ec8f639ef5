import { submissionErrors } from "../../common/submit";
import { useState, type ReactElement } from "react";
import { Button, SimpleForm, Toolbar, SaveButton, useNotify, useRecordContext, useDataProvider, useRefresh } from "react-admin";
import { Dialog, DialogContent, DialogTitle } from "@mui/material";
import type { Subscription } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

/** A form in a dialog that PATCHes the subscription; 422s land on their field. */
export function UpdateDialog({
  label,
  icon,
  title,
  children,
  toBody,
  record,
}: {
  label: string;
  icon: ReactElement;
  title: string;
  children: ReactElement | ReactElement[];
  toBody: (v: Record<string, unknown>) => Record<string, unknown>;
  record: Record<string, unknown>;
}) {
  const s = useRecordContext<Subscription>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!s) return null;
  return (
    <>
      <Button label={label} onClick={() => setOpen(true)}>
        {icon}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`${label}-title`} fullWidth maxWidth="sm">
        <DialogTitle id={`${label}-title`}>{title}</DialogTitle>
        <DialogContent>
          <SimpleForm
            record={{ id: s.id, ...record }}
            toolbar={
              <Toolbar>
                <SaveButton label={label} icon={icon} alwaysEnable />
              </Toolbar>
            }
            onSubmit={async (values: Record<string, unknown>) => {
              try {
                await dataProvider.updateSubscription(s.id, toBody(values));
                notify("Subscription updated", { type: "success" });
                setOpen(false);
                refresh();
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            {children}
          </SimpleForm>
        </DialogContent>
      </Dialog>
    </>
  );
}
