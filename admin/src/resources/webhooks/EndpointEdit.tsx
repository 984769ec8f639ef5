import { Edit } from "react-admin";
import { Form } from "./EndpointForm";

export function EndpointEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <Form />
    </Edit>
  );
}
