import { useRecordContext } from "react-admin";
import type { Benefit } from "../../api";
import { Form } from "./BenefitForm";

export function EditTitleGuard() {
  const record = useRecordContext<Benefit>();
  return record ? <Form create={false} /> : null;
}
