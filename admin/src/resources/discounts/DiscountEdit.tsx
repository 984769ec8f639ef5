import type { Discount } from "../../api";
import { RecordEdit } from "../../common/layouts";
import { body, Form, type Values } from "./DiscountForm";

export function DiscountEdit() {
  return (
    <RecordEdit<Discount, Values>
      transform={body}
      load={(d) => ({ percent: "basis_points" in d ? d.basis_points / 100 : undefined, product_ids: d.products.map((p) => p.id) })}
    >
      <Form />
    </RecordEdit>
  );
}
