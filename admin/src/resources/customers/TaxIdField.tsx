import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import type { Customer, CustomerTaxIdCheck } from "../../api";
import { formatDateTime } from "../../common/format";

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
export function TaxIdField(_props: { label: string }) {
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
