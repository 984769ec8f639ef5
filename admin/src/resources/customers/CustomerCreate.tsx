import { RecordCreate } from "../../common/layouts";
import { body, Form, type Values } from "./CustomerForm";

export function CustomerCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}
