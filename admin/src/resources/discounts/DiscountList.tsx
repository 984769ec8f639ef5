import { FunctionField, TextField } from "react-admin";
import type { Discount } from "../../api";
import { DateTimeField } from "../../common/fields";
import { formatDateTime } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, facts } from "../../common/layouts";
import { discountText } from "./discountText";
import { Amount } from "./Amount";
import { Redemptions } from "./Redemptions";

export function DiscountList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (d: Discount) => d.name,
        secondaryText: (d: Discount) => facts(d.code, `${d.redemptions_count} redeemed`, d.ends_at && `ends ${formatDateTime(d.ends_at)}`),
        tertiaryText: (d: Discount) => discountText(d),
      }}
      filters={metaFilters("discounts")}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={[
        "id",
        "name",
        "code",
        "type",
        "amount",
        "currency",
        "basis_points",
        "duration",
        "duration_in_months",
        "redemptions_count",
        "max_redemptions",
        "starts_at",
        "ends_at",
      ]}
    >
      <TextField source="name" />
      <TextField source="code" emptyText="—" />
      <FunctionField label="Discount" render={() => <Amount />} />
      <FunctionField label="Redemptions" sortBy="redemptions_count" render={() => <Redemptions />} />
      <DateTimeField source="ends_at" label="Ends" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
