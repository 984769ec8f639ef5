import type { Meter } from "../../api";
import { RecordEdit } from "../../common/layouts";
import { body, Form, type Values } from "./MeterForm";

export function MeterEdit() {
  return (
    <RecordEdit<Meter, Values> transform={body}>
      <Form />
    </RecordEdit>
  );
}
