// Customers: who they are, their state (active subscriptions, granted benefits, meters), their
// orders and subscriptions, their meters' usage and their events, and a customer-portal link for
// support.
import { useEffect, useState } from "react";
import { Create, Datagrid, DeleteButton, Edit, EditButton, List, ReferenceManyField, Show, SimpleForm, Tab, TabbedShowLayout, TextField, TextInput, TopToolbar, required, email, useRecordContext, Button, useNotify, Pagination, FunctionField } from "react-admin";
import { Alert, Box, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography, Button as MuiButton } from "@mui/material";
import PeopleIcon from "@mui/icons-material/People";
import SupportAgentIcon from "@mui/icons-material/SupportAgent";
import type { Customer, CustomerSession, CustomerState } from "../../api";
import { CopyButton, DateTimeField, EnumField, IdField, MetadataField, MoneyField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { MetadataInput, metadataToRows, rowsToMetadata } from "../../common/inputs";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { call } from "../../dataProvider/request";
import { AddressInput } from "../../common/AddressInput";
import { csvExporter } from "../../common/csv";
import { CustomerMeterColumns } from "../customer-meters";

function CustomerList() {
  return (
    <List filters={metaFilters("customers", ["query"])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions />} exporter={csvExporter("customers", ["id", "email", "name", "external_id", "billing_address", "created_at"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="email" />
        <TextField source="name" emptyText="—" />
        <TextField source="external_id" label="External id" emptyText="—" sortable={false} />
        <DateTimeField source="created_at" label="Created" />
      </Datagrid>
    </List>
  );
}

/** A customer-portal link for this customer (a fresh customer session), shown to copy. */
function PortalLinkButton() {
  const record = useRecordContext<Customer>();
  const notify = useNotify();
  const [session, setSession] = useState<CustomerSession | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button label="Portal link" disabled={busy} onClick={() => {
        setBusy(true);
        call<CustomerSession>("POST", "/v1/customer-sessions/", { body: { customer_id: record.id } })
          .then(setSession, (e: Error) => notify(e.message, { type: "error" }))
          .finally(() => setBusy(false));
      }}>
        <SupportAgentIcon />
      </Button>
      <Dialog open={!!session} onClose={() => setSession(null)} aria-labelledby="portal-link-title">
        <DialogTitle id="portal-link-title">Customer portal link</DialogTitle>
        <DialogContent>
          <Typography variant="body2" gutterBottom>Anyone with this link acts as {record.email} in the customer portal until {session ? formatDateTime(session.expires_at) : ""}.</Typography>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, bgcolor: "grey.100", p: 1, borderRadius: 1 }}>
            <Typography component="code" variant="body2" sx={{ wordBreak: "break-all" }} data-testid="portal-url">{session?.customer_portal_url}</Typography>
            {session ? <CopyButton value={session.customer_portal_url} label="Copy portal link" /> : null}
          </Box>
        </DialogContent>
        <DialogActions><MuiButton onClick={() => setSession(null)}>Close</MuiButton></DialogActions>
      </Dialog>
    </>
  );
}

/** GET /v1/customers/{id}/state: what the customer has right now. */
function StateTab() {
  const record = useRecordContext<Customer>();
  const [state, setState] = useState<CustomerState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (record) call<CustomerState>("GET", "/v1/customers/{id}/state", { path: { id: record.id } }).then(setState, (e: Error) => setError(e.message));
  }, [record]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!state) return <Typography variant="body2">Loading…</Typography>;
  return (
    <Box sx={{ display: "grid", gap: 3 }}>
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>Active subscriptions</Typography>
        {state.active_subscriptions.length ? (
          <Table size="small">
            <TableHead><TableRow><TableCell>Product</TableCell><TableCell>Amount</TableCell><TableCell>Status</TableCell><TableCell>Renews</TableCell></TableRow></TableHead>
            <TableBody>
              {state.active_subscriptions.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.product_id}</TableCell>
                  <TableCell>{formatMoney(s.amount, s.currency)} / {s.recurring_interval}</TableCell>
                  <TableCell>{humanize(s.status)}{s.cancel_at_period_end ? " (cancels at period end)" : ""}</TableCell>
                  <TableCell>{formatDateTime(s.current_period_end)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : <Typography variant="body2">None.</Typography>}
      </Box>
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>Granted benefits</Typography>
        {state.granted_benefits.length ? (
          <Table size="small">
            <TableHead><TableRow><TableCell>Benefit</TableCell><TableCell>Type</TableCell><TableCell>Granted</TableCell></TableRow></TableHead>
            <TableBody>
              {state.granted_benefits.map((g) => (
                <TableRow key={g.id}><TableCell>{g.benefit_id}</TableCell><TableCell>{humanize(g.benefit_type)}</TableCell><TableCell>{formatDateTime(g.granted_at)}</TableCell></TableRow>
              ))}
            </TableBody>
          </Table>
        ) : <Typography variant="body2">None.</Typography>}
      </Box>
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>Meters</Typography>
        {state.active_meters.length ? (
          <Table size="small">
            <TableHead><TableRow><TableCell>Meter</TableCell><TableCell>Consumed</TableCell><TableCell>Credited</TableCell><TableCell>Balance</TableCell></TableRow></TableHead>
            <TableBody>
              {state.active_meters.map((m) => (
                <TableRow key={m.id}><TableCell>{m.meter_id}</TableCell><TableCell>{m.consumed_units}</TableCell><TableCell>{m.credited_units}</TableCell><TableCell>{m.balance}</TableCell></TableRow>
              ))}
            </TableBody>
          </Table>
        ) : <Typography variant="body2">None.</Typography>}
      </Box>
    </Box>
  );
}

function CustomerShow() {
  return (
    <Show actions={<TopToolbar><PortalLinkButton /><EditButton /><DeleteButton mutationMode="pessimistic" /></TopToolbar>}>
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="email" />
          <TextField source="name" emptyText="—" />
          <TextField source="external_id" label="External id" emptyText="—" />
          <FunctionField label="Billing address" render={(c: Customer) => (c.billing_address ? [c.billing_address.line1, c.billing_address.line2, c.billing_address.postal_code, c.billing_address.city, c.billing_address.state, c.billing_address.country].filter(Boolean).join(", ") : "—")} />
          <IdField source="id" label="ID" />
          <DateTimeField source="created_at" label="Created" />
          <MetadataField source="metadata" label="Metadata" />
        </Tab>
        <Tab label="State" path="state">
          <StateTab />
        </Tab>
        <Tab label="Orders" path="orders">
          <ReferenceManyField reference="orders" target="customer_id" label={false} sort={{ field: "created_at", order: "DESC" }} pagination={<Pagination />}>
            <Datagrid rowClick="show" bulkActionButtons={false} empty={<Typography variant="body2">No orders.</Typography>}>
              <TextField source="product.name" label="Product" />
              <EnumField source="billing_reason" label="Reason" />
              <MoneyField source="total_amount" label="Total" />
              <EnumField source="status" />
              <DateTimeField source="created_at" label="Created" />
            </Datagrid>
          </ReferenceManyField>
        </Tab>
        <Tab label="Subscriptions" path="subscriptions">
          <ReferenceManyField reference="subscriptions" target="customer_id" label={false} pagination={<Pagination />}>
            <Datagrid rowClick="show" bulkActionButtons={false} empty={<Typography variant="body2">No subscriptions.</Typography>}>
              <TextField source="product.name" label="Product" />
              <MoneyField source="amount" />
              <EnumField source="status" />
              <DateTimeField source="current_period_end" label="Period ends" />
            </Datagrid>
          </ReferenceManyField>
        </Tab>
        <Tab label="Usage" path="usage">
          <ReferenceManyField reference="customer-meters" target="customer_id" label={false} sort={{ field: "meter_name", order: "ASC" }} pagination={<Pagination />}>
            <CustomerMeterColumns customer={false} />
          </ReferenceManyField>
          <ReferenceManyField reference="events" target="customer_id" label="Latest events" sort={{ field: "timestamp", order: "DESC" }} perPage={10} pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}>
            <Datagrid rowClick={(id) => `/events/${id}/show`} bulkActionButtons={false} empty={<Typography variant="body2">No events.</Typography>}>
              <DateTimeField source="timestamp" label="Time" />
              <TextField source="name" sortable={false} />
              <EnumField source="source" sortable={false} />
            </Datagrid>
          </ReferenceManyField>
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}

function Form() {
  return (
    <SimpleForm>
      <TextInput source="email" validate={[required(), email()]} />
      <TextInput source="name" />
      <TextInput source="external_id" label="External id" helperText="Your system's id for this customer" />
      <AddressInput source="billing_address" label="Billing address" />
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { billing_address?: Record<string, string | null> | null; metadata_rows?: { key?: string; value?: string }[] };

function body(data: Values): Record<string, unknown> {
  const { metadata_rows, billing_address, ...rest } = data;
  const hasAddress = billing_address && Object.values(billing_address).some((v) => v);
  return { ...rest, external_id: rest.external_id || null, name: rest.name || null, billing_address: hasAddress ? billing_address : null, metadata: rowsToMetadata(metadata_rows) };
}

function CustomerCreate() {
  return (
    <Create transform={body} redirect="show">
      <Form />
    </Create>
  );
}

function CustomerEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={body} redirect="show" queryOptions={{ select: (c: Customer) => ({ ...c, metadata_rows: metadataToRows(c.metadata) }) }}>
      <Form />
    </Edit>
  );
}

export default { list: CustomerList, show: CustomerShow, create: CustomerCreate, edit: CustomerEdit, icon: PeopleIcon, recordRepresentation: "email" };
