import type { Customer } from "../../api";
import { RecordEdit } from "../../common/layouts";
import { body, Form, type Values } from "./CustomerForm";

export function CustomerEdit() {
  return (
    <RecordEdit<Customer, Values> transform={body}>
      <Form />
    </RecordEdit>
  );
}
