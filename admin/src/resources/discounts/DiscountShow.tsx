import { FunctionField, Show, SimpleShowLayout, TextField } from "react-admin";
import type { Discount } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { ShowActions, recordDetails } from "../../common/layouts";
import { Amount } from "./Amount";
import { Redemptions } from "./Redemptions";

export function DiscountShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="code" emptyText="—" />
        <FunctionField label="Discount" render={() => <Amount />} />
        <EnumField source="duration" />
        <FunctionField label="Redemptions" render={() => <Redemptions />} />
        <DateTimeField source="starts_at" label="Starts" />
        <DateTimeField source="ends_at" label="Ends" />
        <FunctionField label="Products" render={(d: Discount) => d.products.map((p) => p.name).join(", ") || "All products"} />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
    </Show>
  );
}
