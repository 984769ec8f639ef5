// A subscription's actions: cancel at period end, uncancel, change product or discount, revoke.
import {
  AutocompleteInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  TopToolbar,
  required,
  useRecordContext,
  useDataProvider,
} from "react-admin";
import { Typography } from "@mui/material";
import CancelIcon from "@mui/icons-material/Cancel";
import UndoIcon from "@mui/icons-material/Undo";
import BlockIcon from "@mui/icons-material/Block";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import LocalOfferIcon from "@mui/icons-material/LocalOffer";
import type { Subscription } from "../../api";
import { enumValues } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { formatDateTime } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";
import { UpdateDialog } from "./UpdateDialog";

const ENDED = new Set(["canceled", "incomplete_expired", "unpaid"]);

export function Actions() {
  const s = useRecordContext<Subscription>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
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
          run={() => dataProvider.updateSubscription(s.id, { cancel_at_period_end: false })}
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
          run={() => dataProvider.updateSubscription(s.id, { revoke: true })}
          success="Subscription revoked"
        />
      ) : null}
    </TopToolbar>
  );
}
