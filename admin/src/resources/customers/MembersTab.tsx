// A team customer's members (GET /v1/members/?customer_id=…): adding one, changing a role (making
// another member the owner hands ownership over) and removing one; the server holds every rule.
import { useState } from "react";
import { FunctionField, TextField, useDataProvider, useNotify, useRecordContext, useRefresh } from "react-admin";
import { Box, Button, MenuItem, TextField as MuiTextField } from "@mui/material";
import PersonRemoveIcon from "@mui/icons-material/PersonRemove";
import type { Customer, Member } from "../../api";
import { ConfirmAction } from "../../common/ConfirmAction";
import { DateTimeField } from "../../common/fields";
import { RelatedList } from "../../common/layouts";
import type { BorealisDataProvider } from "../../dataProvider";

const ROLES: { id: Member["role"]; name: string }[] = [
  { id: "owner", name: "Owner" },
  { id: "billing_manager", name: "Billing manager" },
  { id: "member", name: "Member" },
];

function AddMember({ customer }: { customer: Customer }) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"member" | "billing_manager">("member");
  const [busy, setBusy] = useState(false);
  return (
    <Box
      component="form"
      aria-label="Add a member"
      sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center", mb: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        dataProvider
          .addCustomerMember(customer.id, { email, role })
          .then(
            () => {
              notify("Member added", { type: "success" });
              setEmail("");
              refresh();
            },
            (err: Error) => notify(err.message, { type: "error" }),
          )
          .finally(() => setBusy(false));
      }}
    >
      <MuiTextField label="Email" type="email" required size="small" value={email} onChange={(e) => setEmail(e.target.value)} />
      <MuiTextField
        select
        label="Role"
        size="small"
        value={role}
        onChange={(e) => setRole(e.target.value === "billing_manager" ? "billing_manager" : "member")}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="member">Member</MenuItem>
        <MenuItem value="billing_manager">Billing manager</MenuItem>
      </MuiTextField>
      <Button type="submit" variant="contained" disabled={busy}>
        Add member
      </Button>
    </Box>
  );
}

function RoleSelect({ customer }: { customer: Customer }) {
  const member = useRecordContext<Member>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!member) return null;
  return (
    <MuiTextField
      select
      size="small"
      label={`Role of ${member.email}`}
      value={member.role}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => {
        const role = ROLES.find((r) => r.id === e.target.value)?.id;
        if (!role) return;
        dataProvider.updateCustomerMember(customer.id, member.id, { role }).then(
          () => {
            notify("Role changed", { type: "success" });
            refresh();
          },
          (err: Error) => notify(err.message, { type: "error" }),
        );
      }}
      sx={{ minWidth: 180 }}
    >
      {ROLES.map((r) => (
        <MenuItem key={r.id} value={r.id}>
          {r.name}
        </MenuItem>
      ))}
    </MuiTextField>
  );
}

function RemoveMember({ customer }: { customer: Customer }) {
  const member = useRecordContext<Member>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  if (!member || member.role === "owner") return null;
  return (
    <ConfirmAction
      label="Remove"
      icon={<PersonRemoveIcon />}
      color="error"
      title="Remove this member?"
      content={`${member.email} leaves ${customer.name ?? customer.email}.`}
      run={() => dataProvider.removeCustomerMember(customer.id, member.id)}
      success="Member removed"
    />
  );
}

export function MembersTab() {
  const customer = useRecordContext<Customer>();
  if (!customer) return null;
  return (
    <>
      {customer.type === "team" ? <AddMember customer={customer} /> : null}
      <RelatedList
        reference="members"
        target="customer_id"
        label={false}
        sort={{ field: "created_at", order: "ASC" }}
        rowClick={false}
        empty="No members: the organization's Member model is off, or this customer has none."
      >
        <TextField source="email" sortable={false} />
        <TextField source="name" emptyText="—" sortable={false} />
        <FunctionField label="Role" render={() => <RoleSelect customer={customer} />} />
        <DateTimeField source="created_at" label="Added" />
        <FunctionField label="" render={() => <RemoveMember customer={customer} />} />
      </RelatedList>
    </>
  );
}
