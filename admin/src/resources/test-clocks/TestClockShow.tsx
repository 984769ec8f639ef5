import { Show, SimpleShowLayout, TextField, ReferenceArrayField, SingleFieldList, ChipField } from "react-admin";
import { Box, Typography } from "@mui/material";
import { DateTimeField, EnumField } from "../../common/fields";
import { ShowActions, recordDetails } from "../../common/layouts";
import { AdvanceButtons } from "./AdvanceButtons";
import { AttachCustomerButton } from "./AttachCustomerButton";

export function TestClockShow() {
  return (
    <Show
      actions={
        <ShowActions remove>
          <AttachCustomerButton />
        </ShowActions>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" emptyText="—" />
        <DateTimeField source="frozen_time" label="Clock time" />
        <EnumField source="status" />
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            Advance
          </Typography>
          <AdvanceButtons />
        </Box>
        <ReferenceArrayField source="customer_ids" reference="customers" label="Customers">
          <SingleFieldList linkType="show" empty={<Typography variant="body2">No customers attached yet.</Typography>}>
            <ChipField source="email" />
          </SingleFieldList>
        </ReferenceArrayField>
        {recordDetails({ created: false, metadata: false })}
      </SimpleShowLayout>
    </Show>
  );
}
