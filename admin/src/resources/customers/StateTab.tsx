import { useEffect, useState } from "react";
import { FunctionField, NumberField, useRecordContext, useDataProvider } from "react-admin";
import { Alert, Box, Typography } from "@mui/material";
import type { Customer, CustomerState, CustomerStateSubscription } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import type { BorealisDataProvider } from "../../dataProvider";
import { ReferenceNameField } from "../../common/references";
import { BalanceField } from "../customer-meters";
import { SubscriptionAmountField } from "../subscriptions/SubscriptionAmountField";
import { StateSection } from "./StateSection";

/**
 * GET /v1/customers/{id}/state: what the customer has right now. The state names products,
 * benefits and meters by id only: each column shows them by name (one batched call per column).
 */
export function StateTab() {
  const record = useRecordContext<Customer>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [state, setState] = useState<CustomerState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (record)
      dataProvider.getCustomerState(record.id).then(
        ({ data }) => setState(data),
        (e: Error) => setError(e.message),
      );
  }, [dataProvider, record]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!state) return <Typography variant="body2">Loading…</Typography>;
  return (
    <Box sx={{ display: "grid", gap: 3 }}>
      <StateSection title="Active subscriptions" rows={state.active_subscriptions} rowClick={(id) => `/subscriptions/${id}/show`}>
        <ReferenceNameField source="product_id" reference="products" label="Product" sortable={false} />
        <SubscriptionAmountField label="Amount" sortBy="amount" />
        <FunctionField
          label="Status"
          sortBy="status"
          render={(s: CustomerStateSubscription) => (
            <>
              <EnumField source="status" />
              {s.cancel_at_period_end ? " cancels at period end" : ""}
            </>
          )}
        />
        <DateTimeField source="current_period_end" label="Renews" />
      </StateSection>
      <StateSection title="Granted benefits" rows={state.granted_benefits}>
        <ReferenceNameField source="benefit_id" reference="benefits" label="Benefit" sortable={false} />
        <EnumField source="benefit_type" label="Type" />
        <DateTimeField source="granted_at" label="Granted" />
      </StateSection>
      <StateSection title="Meters" rows={state.active_meters} rowClick={(id) => `/customer-meters/${id}/show`}>
        <ReferenceNameField source="meter_id" reference="meters" label="Meter" sortable={false} />
        <NumberField source="consumed_units" label="Consumed" />
        <NumberField source="credited_units" label="Credited" />
        <BalanceField label="Balance" sortBy="balance" />
      </StateSection>
    </Box>
  );
}
