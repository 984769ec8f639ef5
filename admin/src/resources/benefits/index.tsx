// Benefits, one form per type: a custom note, license keys, downloadable files (uploaded here),
// GitHub repository access, a Discord role, meter credits; and the grants each has made.
import { useState } from "react";
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  FormDataConsumer,
  FunctionField,
  NumberInput,
  ReferenceInput,
  Show,
  SimpleForm,
  Tab,
  TabbedShowLayout,
  TextField,
  TextInput,
  required,
  minValue,
  useInput,
  useNotify,
  useRecordContext,
} from "react-admin";
import { Box, Button, Chip, CircularProgress, IconButton, Typography } from "@mui/material";
import CardGiftcardIcon from "@mui/icons-material/CardGiftcard";
import DeleteIcon from "@mui/icons-material/Delete";
import type { Benefit } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { EnumInput, MetadataInput } from "../../common/inputs";
import { humanize } from "../../common/format";
import { uploadFile } from "../../common/upload";
import { RecordCreate, RecordEdit, RelatedList, ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";

function BenefitList() {
  return (
    <ResourceList
      filters={metaFilters("benefits", ["query", "type"])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "type", "description", "created_at"]}
    >
      <TextField source="description" />
      <EnumField source="type" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

/** What a benefit of each type gives, in words. */
export function benefitSummary(b: Benefit): string {
  switch (b.type) {
    case "custom":
      return b.properties.note ? `Note: ${b.properties.note}` : "A private note";
    case "license_keys": {
      const p = b.properties;
      const parts = [
        p.prefix ? `prefix ${p.prefix}` : null,
        p.expires ? `expires after ${p.expires.ttl} ${p.expires.timeframe}(s)` : "never expires",
        p.activations ? `${p.activations.limit} activations` : null,
        p.limit_usage != null ? `usage limit ${p.limit_usage}` : null,
      ];
      return `License keys: ${parts.filter(Boolean).join(", ")}`;
    }
    case "downloadables":
      return `${b.properties.files.length} file(s) to download`;
    case "github_repository":
      return `${humanize(b.properties.permission)} access to ${b.properties.repository_owner}/${b.properties.repository_name}`;
    case "discord":
      return `Discord role ${b.properties.role_id} in server ${b.properties.guild_id}`;
    case "meter_credit":
      return `${b.properties.units} units of credit each period${b.properties.rollover ? ", rolled over" : ""}`;
    default:
      return "";
  }
}

function BenefitShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="description" />
          <EnumField source="type" />
          <FunctionField label="Gives" render={(b: Benefit) => benefitSummary(b)} />
          {recordDetails()}
        </Tab>
        <Tab label="Grants" path="grants">
          <RelatedList reference="benefits-grants" target="benefit_id" label={false} rowClick={false} empty="Not granted to anyone yet.">
            <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
            <BooleanField source="is_granted" label="Granted" />
            <DateTimeField source="granted_at" label="Granted at" />
            <BooleanField source="is_revoked" label="Revoked" />
            <DateTimeField source="revoked_at" label="Revoked at" />
            <FunctionField
              label="Error"
              render={(g: { error?: { message: string } | null }) =>
                g.error ? <Chip size="small" color="error" label={g.error.message} /> : "—"
              }
            />
          </RelatedList>
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}

interface FileRef {
  id: string;
  name?: string;
}

/** Downloadable files: uploaded here, kept as ids. */
function FilesInput() {
  const { field, fieldState } = useInput<FileRef[]>({
    source: "download_files",
    defaultValue: [],
    validate: (v: FileRef[] | undefined) => (v?.length ? undefined : "Upload at least one file"),
  });
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const files: FileRef[] = field.value ?? [];
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="subtitle2">Files</Typography>
      {files.map((f) => (
        <Box key={f.id} sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography variant="body2">{f.name ?? f.id}</Typography>
          <IconButton
            size="small"
            aria-label={`Remove ${f.name ?? f.id}`}
            onClick={() => field.onChange(files.filter((x) => x.id !== f.id))}
          >
            <DeleteIcon fontSize="inherit" />
          </IconButton>
        </Box>
      ))}
      <Button
        component="label"
        variant="outlined"
        size="small"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={14} /> : undefined}
        sx={{ mt: 1 }}
      >
        Upload a file
        <input
          hidden
          type="file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            setBusy(true);
            uploadFile(file, "downloadable")
              .then((r) => field.onChange([...files, { id: r.id, name: r.name }]))
              .catch((err: Error) => notify(err.message, { type: "error" }))
              .finally(() => setBusy(false));
          }}
        />
      </Button>
      {fieldState.error ? (
        <Typography variant="caption" color="error" component="p">
          {fieldState.error.message}
        </Typography>
      ) : null}
    </Box>
  );
}

function PropertiesInputs({ type }: { type?: string }) {
  switch (type) {
    case "custom":
      return <TextInput source="properties.note" label="Note shown to the customer" multiline minRows={3} fullWidth />;
    case "license_keys":
      return (
        <>
          <TextInput source="properties.prefix" label="Key prefix" />
          <NumberInput source="properties.expires.ttl" label="Expires after" min={1} helperText="Empty: never expires" />
          <EnumInput source="properties.expires.timeframe" label="Unit" values={["day", "month", "year"]} />
          <NumberInput source="properties.activations.limit" label="Activation limit" min={1} helperText="Empty: no activations" />
          <BooleanInput source="properties.activations.enable_customer_admin" label="Customers manage their activations" />
          <NumberInput source="properties.limit_usage" label="Usage limit" min={1} />
        </>
      );
    case "downloadables":
      return <FilesInput />;
    case "github_repository":
      return (
        <>
          <TextInput source="properties.repository_owner" label="Repository owner" validate={required()} />
          <TextInput source="properties.repository_name" label="Repository name" validate={required()} />
          <EnumInput
            source="properties.permission"
            label="Permission"
            values={["pull", "triage", "push", "maintain", "admin"]}
            validate={required()}
          />
        </>
      );
    case "discord":
      return (
        <>
          <TextInput source="properties.guild_token" label="Server (guild) token" validate={required()} />
          <TextInput source="properties.role_id" label="Role id" validate={required()} />
          <BooleanInput source="properties.kick_member" label="Remove from the server when revoked" />
        </>
      );
    case "meter_credit":
      return (
        <>
          <ReferenceInput source="properties.meter_id" reference="meters">
            <AutocompleteInput label="Meter" optionText="name" validate={required()} filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>
          <NumberInput source="properties.units" label="Units credited" validate={[required(), minValue(1)]} />
          <BooleanInput source="properties.rollover" label="Unused units roll over" />
        </>
      );
    default:
      return null;
  }
}

function Form({ create }: { create: boolean }) {
  return (
    <SimpleForm>
      {create ? <EnumInput source="type" values={enumValues("benefits", "type")} validate={required()} /> : <EnumField source="type" />}
      <TextInput source="description" validate={required()} fullWidth helperText="What the customer sees" />
      <FormDataConsumer>{({ formData }) => <PropertiesInputs type={formData.type} />}</FormDataConsumer>
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { type?: string; properties?: Record<string, unknown>; download_files?: FileRef[] };

function propertiesBody(type: string | undefined, p: Record<string, unknown> = {}, files: FileRef[] = []): Record<string, unknown> {
  switch (type) {
    case "license_keys": {
      const expires = p.expires as { ttl?: number; timeframe?: string } | null | undefined;
      const activations = p.activations as { limit?: number; enable_customer_admin?: boolean } | null | undefined;
      return {
        prefix: p.prefix || null,
        expires: expires?.ttl ? { ttl: expires.ttl, timeframe: expires.timeframe ?? "year" } : null,
        activations: activations?.limit ? { limit: activations.limit, enable_customer_admin: !!activations.enable_customer_admin } : null,
        limit_usage: p.limit_usage ?? null,
      };
    }
    case "downloadables":
      return { files: files.map((f) => f.id), archived: p.archived ?? {} };
    case "custom":
      return { note: p.note ?? null };
    case "discord":
      return { guild_token: p.guild_token, role_id: p.role_id, kick_member: !!p.kick_member };
    case "meter_credit":
      return { meter_id: p.meter_id, units: p.units, rollover: !!p.rollover };
    default:
      return p;
  }
}

function body(data: Values): Record<string, unknown> {
  const { download_files, properties, ...rest } = data;
  return { ...rest, properties: propertiesBody(rest.type, properties, download_files) };
}

function BenefitCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form create />
    </RecordCreate>
  );
}

function BenefitEdit() {
  return (
    <RecordEdit<Benefit, Values>
      transform={body}
      load={(b) => ({ download_files: b.type === "downloadables" ? b.properties.files.map((id) => ({ id })) : [] })}
    >
      <EditTitleGuard />
    </RecordEdit>
  );
}

function EditTitleGuard() {
  const record = useRecordContext<Benefit>();
  return record ? <Form create={false} /> : null;
}

export default {
  list: BenefitList,
  show: BenefitShow,
  create: BenefitCreate,
  edit: BenefitEdit,
  icon: CardGiftcardIcon,
  recordRepresentation: "description",
};
