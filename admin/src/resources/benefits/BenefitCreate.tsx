import { RecordCreate } from "../../common/layouts";
import { body, Form, type Values } from "./BenefitForm";

export function BenefitCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form create />
    </RecordCreate>
  );
}
