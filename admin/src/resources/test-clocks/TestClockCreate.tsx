import { Create, DateTimeInput, SimpleForm, TextInput, required } from "react-admin";

export function TestClockCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ frozen_time: new Date().toISOString() }}>
        <TextInput source="name" />
        <DateTimeInput source="frozen_time" label="Start at" validate={required()} />
      </SimpleForm>
    </Create>
  );
}
