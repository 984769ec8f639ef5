// Customers: who they are, their state (active subscriptions, granted benefits, meters), their
// orders and subscriptions, their meters' usage and their events, the emails they were sent (a
// receipt can be sent again), and a customer-portal link for support.
import { useEffect, useState, type ReactNode } from "react";
import {
  Datagrid,
  FunctionField,
  ListContextProvider,
  NumberField,
  ReferenceManyField,
  Show,
  SimpleForm,
  Tab,
  TabbedShowLayout,
  TextField,
  TextInput,
  required,
  email,
  useList,
  useRecordContext,
  Button,
  useNotify,
  useRefresh,
  Pagination,
} from "react-admin";
import { Alert, Box, Dialog, DialogActions, DialogContent, DialogTitle, Typography, Button as MuiButton } from "@mui/material";
import PeopleIcon from "@mui/icons-material/People";
import SupportAgentIcon from "@mui/icons-material/SupportAgent";
import SendIcon from "@mui/icons-material/Send";
import type { Customer, CustomerSession, CustomerState, CustomerStateSubscription, CustomerTaxIdCheck, EmailSend } from "../../api";
import { CopyButton, DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { metaFilters } from "../../common/generic";
import { MetadataInput } from "../../common/inputs";
import { formatDateTime } from "../../common/format";
import { call } from "../../dataProvider/request";
import { AddressInput } from "../../common/AddressInput";
import { RecordCreate, RecordEdit, RelatedList, ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { ReferenceNameField } from "../../common/references";
import { BalanceField, CustomerMeterColumns } from "../customer-meters";
import { SubscriptionAmountField } from "../subscriptions";

function CustomerList() {
  return (
    <ResourceList
      filters={metaFilters("customers", ["query"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "email", "name", "external_id", "billing_address", "created_at"]}
    >
      <TextField source="email" />
      <TextField source="name" emptyText="—" />
      <TextField source="external_id" label="External id" emptyText="—" sortable={false} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
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
      <Button
        label="Portal link"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          call<CustomerSession>("POST", "/v1/customer-sessions/", { body: { customer_id: record.id } })
            .then(setSession, (e: Error) => notify(e.message, { type: "error" }))
            .finally(() => setBusy(false));
        }}
      >
        <SupportAgentIcon />
      </Button>
      <Dialog open={!!session} onClose={() => setSession(null)} aria-labelledby="portal-link-title">
        <DialogTitle id="portal-link-title">Customer portal link</DialogTitle>
        <DialogContent>
          <Typography variant="body2" gutterBottom>
            Anyone with this link acts as {record.email} in the customer portal until {session ? formatDateTime(session.expires_at) : ""}.
          </Typography>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, bgcolor: "grey.100", p: 1, borderRadius: 1 }}>
            <Typography component="code" variant="body2" sx={{ wordBreak: "break-all" }} data-testid="portal-url">
              {session?.customer_portal_url}
            </Typography>
            {session ? <CopyButton value={session.customer_portal_url} label="Copy portal link" /> : null}
          </Box>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setSession(null)}>Close</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** One section of the customer's state: a heading, then a table of its rows, or "None." */
function StateSection<T extends { id: string }>({
  title,
  rows,
  rowClick,
  children,
}: {
  title: string;
  rows: T[];
  rowClick?: (id: string | number) => string;
  children: ReactNode;
}) {
  const list = useList({ data: rows, perPage: rows.length || 1 });
  return (
    <Box>
      <Typography variant="h6" component="h3" gutterBottom>
        {title}
      </Typography>
      <ListContextProvider value={list}>
        <Datagrid rowClick={rowClick} bulkActionButtons={false} empty={<Typography variant="body2">None.</Typography>}>
          {children}
        </Datagrid>
      </ListContextProvider>
    </Box>
  );
}

/**
 * GET /v1/customers/{id}/state: what the customer has right now. The state names products,
 * benefits and meters by id only: each column shows them by name (one batched call per column).
 */
function StateTab() {
  const record = useRecordContext<Customer>();
  const [state, setState] = useState<CustomerState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (record)
      call<CustomerState>("GET", "/v1/customers/{id}/state", { path: { id: record.id } }).then(setState, (e: Error) => setError(e.message));
  }, [record]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!state) return <Typography variant="body2">Loading…</Typography>;
  return (
    <Box sx={{ display: "grid", gap: 3 }}>
      <StateSection title="Active subscriptions" rows={state.active_subscriptions} rowClick={(id) => `/subscriptions/${id}/show`}>
        <ReferenceNameField source="product_id" reference="products" label="Product" sortable={false} />
        <SubscriptionAmountField label="Amount" sortBy="amount" />
        <FunctionField
          label="Status"
          sortBy="status"
          render={(s: CustomerStateSubscription) => (
            <>
              <EnumField source="status" />
              {s.cancel_at_period_end ? " cancels at period end" : ""}
            </>
          )}
        />
        <DateTimeField source="current_period_end" label="Renews" />
      </StateSection>
      <StateSection title="Granted benefits" rows={state.granted_benefits}>
        <ReferenceNameField source="benefit_id" reference="benefits" label="Benefit" sortable={false} />
        <EnumField source="benefit_type" label="Type" />
        <DateTimeField source="granted_at" label="Granted" />
      </StateSection>
      <StateSection title="Meters" rows={state.active_meters} rowClick={(id) => `/customer-meters/${id}/show`}>
        <ReferenceNameField source="meter_id" reference="meters" label="Meter" sortable={false} />
        <NumberField source="consumed_units" label="Consumed" />
        <NumberField source="credited_units" label="Credited" />
        <BalanceField label="Balance" sortBy="balance" />
      </StateSection>
    </Box>
  );
}

const REGISTRY: Record<NonNullable<CustomerTaxIdCheck["service"]>, string> = { vies: "VIES", hmrc: "HMRC" };

/** What the registry said about the tax id, in a sentence. */
function checkSentence(check: CustomerTaxIdCheck): string {
  const by = check.service ? REGISTRY[check.service] : "the registry";
  const when = formatDateTime(check.checked_at);
  switch (check.status) {
    case "valid":
      return `Confirmed by ${by} on ${when}`;
    case "invalid":
      return `Not registered, according to ${by} on ${when}`;
    case "unavailable":
      return `${by} could not be reached on ${when}; it is asked again later`;
    default:
      return "Not checked with VIES or HMRC";
  }
}

/** The tax id with its online check (VIES, HMRC): the status, and the name and address the registry holds. */
// `label` is read by the show layout, which labels the field with it.
function TaxIdField(_props: { label: string }) {
  const record = useRecordContext<Customer>();
  if (!record?.tax_id) return <Typography variant="body2">—</Typography>;
  const [value, type] = record.tax_id;
  const check = record.tax_id_check;
  return (
    <Box data-testid="tax-id-check">
      <Typography variant="body2">
        {value} ({String(type).replace(/_/g, " ").toUpperCase()})
      </Typography>
      {check ? (
        <>
          <Typography variant="body2" data-status={check.status}>
            {checkSentence(check)}
          </Typography>
          {check.name ? <Typography variant="body2">Registered name: {check.name}</Typography> : null}
          {check.address ? (
            <Typography variant="body2" sx={{ whiteSpace: "pre-line" }}>
              Registered address: {check.address}
            </Typography>
          ) : null}
        </>
      ) : null}
    </Box>
  );
}

/** The receipts a merchant may send again (the API refuses the other kinds). */
const RESENDABLE = new Set(["order_confirmation", "subscription_cycled"]);

/** Sends a receipt again as a new email (POST /v1/emails/{id}/resend); the list then shows it. */
function ResendButton() {
  const record = useRecordContext<EmailSend>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !RESENDABLE.has(record.kind)) return null;
  return (
    <Button
      label="Resend receipt"
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation();
        setBusy(true);
        call<EmailSend>("POST", "/v1/emails/{id}/resend", { path: { id: record.id } })
          .then(
            () => {
              notify("Receipt queued to send again", { type: "success" });
              refresh();
            },
            (err: Error) => notify(err.message, { type: "error" }),
          )
          .finally(() => setBusy(false));
      }}
    >
      <SendIcon />
    </Button>
  );
}

function CustomerShow() {
  return (
    <Show
      actions={
        <ShowActions remove>
          <PortalLinkButton />
        </ShowActions>
      }
    >
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="email" />
          <TextField source="name" emptyText="—" />
          <TextField source="external_id" label="External id" emptyText="—" />
          <FunctionField
            label="Billing address"
            render={(c: Customer) =>
              c.billing_address
                ? [
                    c.billing_address.line1,
                    c.billing_address.line2,
                    c.billing_address.postal_code,
                    c.billing_address.city,
                    c.billing_address.state,
                    c.billing_address.country,
                  ]
                    .filter(Boolean)
                    .join(", ")
                : "—"
            }
          />
          <TaxIdField label="Tax ID" />
          {recordDetails()}
        </Tab>
        <Tab label="State" path="state">
          <StateTab />
        </Tab>
        <Tab label="Orders" path="orders">
          <RelatedList
            reference="orders"
            target="customer_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            empty="No orders."
          >
            <TextField source="product.name" label="Product" />
            <EnumField source="billing_reason" label="Reason" />
            <MoneyField source="total_amount" label="Total" />
            <EnumField source="status" />
            <DateTimeField source="created_at" label="Created" />
          </RelatedList>
        </Tab>
        <Tab label="Subscriptions" path="subscriptions">
          <RelatedList reference="subscriptions" target="customer_id" label={false} empty="No subscriptions.">
            <TextField source="product.name" label="Product" />
            <MoneyField source="amount" />
            <EnumField source="status" />
            <DateTimeField source="current_period_end" label="Period ends" />
          </RelatedList>
        </Tab>
        <Tab label="Emails" path="emails">
          <RelatedList
            reference="emails"
            target="customer_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            rowClick={false}
            empty="No emails sent."
          >
            <EnumField source="kind" sortable={false} />
            <TextField source="subject" emptyText="—" sortable={false} />
            <EnumField source="status" sortable={false} />
            <DateTimeField source="sent_at" label="Sent at" />
            <ResendButton />
          </RelatedList>
        </Tab>
        <Tab label="Usage" path="usage">
          <ReferenceManyField
            reference="customer-meters"
            target="customer_id"
            label={false}
            sort={{ field: "meter_name", order: "ASC" }}
            pagination={<Pagination />}
          >
            <CustomerMeterColumns customer={false} />
          </ReferenceManyField>
          <RelatedList
            reference="events"
            target="customer_id"
            label="Latest events"
            sort={{ field: "timestamp", order: "DESC" }}
            perPage={10}
            rowsPerPageOptions={[10, 25, 50]}
            rowClick={(id) => `/events/${id}/show`}
            empty="No events."
          >
            <DateTimeField source="timestamp" label="Time" />
            <TextField source="name" sortable={false} />
            <EnumField source="source" sortable={false} />
          </RelatedList>
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

type Values = Record<string, unknown> & { billing_address?: Record<string, string | null> | null };

function body(data: Values): Record<string, unknown> {
  const { billing_address, ...rest } = data;
  const hasAddress = billing_address && Object.values(billing_address).some((v) => v);
  return { ...rest, external_id: rest.external_id || null, name: rest.name || null, billing_address: hasAddress ? billing_address : null };
}

function CustomerCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}

function CustomerEdit() {
  return (
    <RecordEdit<Customer, Values> transform={body}>
      <Form />
    </RecordEdit>
  );
}

export default {
  list: CustomerList,
  show: CustomerShow,
  create: CustomerCreate,
  edit: CustomerEdit,
  icon: PeopleIcon,
  recordRepresentation: "email",
};
