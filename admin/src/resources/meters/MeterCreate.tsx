import { RecordCreate } from "../../common/layouts";
import { body, Form, type Values } from "./MeterForm";

export function MeterCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}
