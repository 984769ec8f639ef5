import { RecordCreate } from "../../common/layouts";
import { body, Form, type Values } from "./DiscountForm";

export function DiscountCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}
