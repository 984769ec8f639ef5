// Subscriptions: cancel at period end, uncancel, revoke now, change product (with proration),
// change discount. Each action is a confirmed call the server answers before the screen changes.
import { submissionErrors } from "../../common/submit";
import { useState, type ReactElement } from "react";
import {
  AutocompleteInput,
  Button,
  ReferenceInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  SaveButton,
  TopToolbar,
  required,
  useNotify,
  useRecordContext,
  useRefresh,
  BooleanField,
  FunctionField,
} from "react-admin";
import { Dialog, DialogContent, DialogTitle, Typography } from "@mui/material";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import CancelIcon from "@mui/icons-material/Cancel";
import UndoIcon from "@mui/icons-material/Undo";
import BlockIcon from "@mui/icons-material/Block";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import LocalOfferIcon from "@mui/icons-material/LocalOffer";
import type { Subscription } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { billingText, formatDateTime, perPeriod } from "../../common/format";
import { call } from "../../dataProvider/request";
import { ResourceList, recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { ConfirmAction } from "../../common/ConfirmAction";

const ENDED = new Set(["canceled", "incomplete_expired", "unpaid"]);

/** The amount per billing period ("$29.00 / month", "$81.00 / 3 months"). */
export function SubscriptionAmountField(_props: { label?: string; sortBy?: string }) {
  const s = useRecordContext<{ recurring_interval: string; recurring_interval_count?: number }>();
  if (!s) return null;
  return (
    <Typography component="span" variant="body2">
      <MoneyField source="amount" /> {perPeriod(s.recurring_interval, s.recurring_interval_count)}
    </Typography>
  );
}

/** A trial's dates and what became of it: the first charge ahead, converted, or ended within it. */
function TrialDatesField(_props: { label?: string }) {
  const s = useRecordContext<Subscription>();
  if (!s?.trial_start || !s.trial_end)
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  const after =
    s.status === "trialing"
      ? s.cancel_at_period_end
        ? "then it ends, nothing charged"
        : "then the first charge"
      : s.ended_at && new Date(s.ended_at).getTime() <= new Date(s.trial_end).getTime()
        ? "ended within the trial"
        : "converted to paid";
  return (
    <Typography component="span" variant="body2" data-testid="trial-dates">
      {formatDateTime(s.trial_start)} → {formatDateTime(s.trial_end)} ({after})
    </Typography>
  );
}

function SubscriptionList() {
  return (
    <ResourceList
      filters={metaFilters("subscriptions", ["active"])}
      sort={{ field: "started_at", order: "DESC" }}
      create={false}
      exportFields={[
        "id",
        "status",
        "customer.email",
        "product.name",
        "amount",
        "currency",
        "recurring_interval",
        "started_at",
        "current_period_end",
        "cancel_at_period_end",
        "ends_at",
      ]}
    >
      <TextField source="customer.email" label="Customer" sortBy="customer" />
      <TextField source="product.name" label="Product" sortBy="product" />
      <SubscriptionAmountField label="Amount" sortBy="amount" />
      <EnumField source="status" />
      <DateTimeField source="current_period_end" label="Renews / ends" />
      <DateTimeField source="trial_end" label="Trial ends" />
      <BooleanField source="cancel_at_period_end" label="Cancels" sortable={false} />
    </ResourceList>
  );
}

function update(id: string, body: Record<string, unknown>) {
  return call<Subscription>("PATCH", "/v1/subscriptions/{id}", { path: { id }, body });
}

/** A form in a dialog that PATCHes the subscription; 422s land on their field. */
function UpdateDialog({
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
                await update(s.id, toBody(values));
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

function Actions() {
  const s = useRecordContext<Subscription>();
  if (!s) return <TopToolbar />;
  const ended = ENDED.has(s.status);
  return (
    <TopToolbar>
      {!ended && !s.cancel_at_period_end ? (
        <UpdateDialog
          label="Cancel"
          icon={<CancelIcon />}
          title="Cancel at the end of the period"
          record={{ customer_cancellation_reason: null }}
          toBody={(v) => ({
            cancel_at_period_end: true,
            customer_cancellation_reason: v.customer_cancellation_reason || null,
            customer_cancellation_comment: v.customer_cancellation_comment || null,
          })}
        >
          <Typography variant="body2">
            {s.status === "trialing"
              ? `The free trial goes on until ${formatDateTime(s.current_period_end)}, then the subscription ends; nothing is charged.`
              : `The customer keeps access until ${formatDateTime(s.current_period_end)}; nothing more is charged.`}
          </Typography>
          <SelectInput
            source="customer_cancellation_reason"
            label="Reason"
            choices={choicesOf(enumValues("subscriptions", "customer_cancellation_reason"))}
          />
          <TextInput source="customer_cancellation_comment" label="Comment" multiline fullWidth />
        </UpdateDialog>
      ) : null}
      {!ended && s.cancel_at_period_end ? (
        <ConfirmAction
          label="Uncancel"
          icon={<UndoIcon />}
          title="Keep this subscription?"
          content="It renews at the end of the period again."
          run={() => update(s.id, { cancel_at_period_end: false })}
          success="Subscription will renew"
        />
      ) : null}
      {!ended ? (
        <UpdateDialog
          label="Change product"
          icon={<SwapHorizIcon />}
          title="Change product"
          record={{ product_id: s.product_id, proration_behavior: "prorate" }}
          toBody={(v) => ({ product_id: v.product_id, proration_behavior: v.proration_behavior })}
        >
          <ReferenceInput source="product_id" reference="products" filter={{ is_recurring: true, is_archived: false }}>
            <AutocompleteInput label="New product" optionText="name" validate={required()} filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>
          <SelectInput
            source="proration_behavior"
            label="Proration"
            choices={[
              { id: "prorate", name: "Prorate on the next invoice" },
              { id: "invoice", name: "Invoice the difference now" },
            ]}
            validate={required()}
          />
        </UpdateDialog>
      ) : null}
      {!ended ? (
        <UpdateDialog
          label="Discount"
          icon={<LocalOfferIcon />}
          title="Change discount"
          record={{ discount_id: s.discount_id }}
          toBody={(v) => ({ discount_id: v.discount_id || null })}
        >
          <ReferenceInput source="discount_id" reference="discounts">
            <AutocompleteInput label="Discount (empty: none)" optionText="name" filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>
        </UpdateDialog>
      ) : null}
      {!ended ? (
        <ConfirmAction
          color="error"
          label="Revoke"
          icon={<BlockIcon />}
          title="Revoke now?"
          content="The subscription ends immediately and its benefits are revoked. Nothing is refunded."
          run={() => update(s.id, { revoke: true })}
          success="Subscription revoked"
        />
      ) : null}
    </TopToolbar>
  );
}

function SubscriptionShow() {
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <EnumField source="status" />
        <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
        <LinkField label="Product" source="product_id" reference="products" text="product.name" />
        <SubscriptionAmountField label="Amount" />
        <FunctionField label="Billing" render={(s: Subscription) => billingText(s.recurring_interval, s.recurring_interval_count)} />
        <TrialDatesField label="Free trial" />
        <LinkField label="Discount" source="discount_id" reference="discounts" text="discount.name" />
        <DateTimeField source="started_at" label="Started" />
        <DateTimeField source="current_period_start" label="Period start" />
        <DateTimeField source="current_period_end" label="Period end" />
        <BooleanField source="cancel_at_period_end" label="Cancels at period end" />
        <DateTimeField source="ends_at" label="Ends" />
        <DateTimeField source="ended_at" label="Ended" />
        <EnumField source="customer_cancellation_reason" label="Cancellation reason" />
        <TextField source="customer_cancellation_comment" label="Cancellation comment" emptyText="—" />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: SubscriptionList, show: SubscriptionShow, icon: AutorenewIcon };
