// A benefit made from the product form's benefit picker: the benefit's own form in a dialog; once
// created it is chosen in the picker, so a new organization attaches one without leaving the form.
import { CreateBase, SimpleForm, Toolbar, useCreateSuggestionContext } from "react-admin";
import { Dialog, DialogContent, DialogTitle } from "@mui/material";
import { BenefitInputs, body } from "../benefits/BenefitForm";

export function NewBenefitDialog() {
  const { filter, onCancel, onCreate } = useCreateSuggestionContext();
  return (
    <Dialog open onClose={onCancel} aria-labelledby="new-benefit-title" fullWidth maxWidth="sm">
      <DialogTitle id="new-benefit-title">New benefit</DialogTitle>
      <DialogContent sx={{ p: 0 }}>
        <CreateBase resource="benefits" redirect={false} transform={body} mutationOptions={{ onSuccess: onCreate }}>
          {/* react-admin pins a form's toolbar to the screen's bottom on a phone: in a dialog it stays in the dialog */}
          <SimpleForm
            defaultValues={{ type: "custom", description: filter }}
            toolbar={<Toolbar sx={{ "&.RaToolbar-mobileToolbar": { position: "static" } }} />}
          >
            <BenefitInputs create />
          </SimpleForm>
        </CreateBase>
      </DialogContent>
    </Dialog>
  );
}
