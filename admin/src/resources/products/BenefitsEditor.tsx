import { useState } from "react";
import { submissionErrors } from "../../common/submit";
import { SimpleForm, useNotify, useDataProvider, useRecordContext, useRefresh, SaveButton, Toolbar } from "react-admin";
import type { Product } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { BenefitsInput } from "./BenefitsInput";

/** The benefits a purchase grants, changed with their own call (POST /v1/products/{id}/benefits). */
export function BenefitsEditor() {
  const record = useRecordContext<Product>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [saving, setSaving] = useState(false);
  if (!record) return null;
  return (
    <SimpleForm
      record={{ id: record.id, benefit_ids: record.benefits.map((b) => b.id) }}
      toolbar={
        <Toolbar>
          <SaveButton label="Save benefits" disabled={saving} alwaysEnable={false} />
        </Toolbar>
      }
      onSubmit={async (values: { benefit_ids?: string[] }) => {
        setSaving(true);
        try {
          await dataProvider.setProductBenefits(record.id, values.benefit_ids ?? []);
          notify("Benefits saved", { type: "success" });
          refresh();
        } catch (err) {
          return submissionErrors(err, notify);
        } finally {
          setSaving(false);
        }
      }}
    >
      <BenefitsInput />
    </SimpleForm>
  );
}
