// How a product bills, its free trial and who sees it: how each reads on a page, and the inputs
// that set them (the interval count and the trial only for a recurring product).
import { FormDataConsumer, NumberInput, SelectInput, useRecordContext } from "react-admin";
import { Box, Chip, Tooltip, Typography } from "@mui/material";
import { billingText, trialText } from "../../common/format";

export const VISIBILITIES = [
  { id: "public", name: "Public", help: "On the storefront and offered in the customer portal; sold through checkouts and links." },
  {
    id: "private",
    name: "Private",
    help: "Sold through checkouts and checkout links only: not on the storefront, not offered in the portal.",
  },
  { id: "draft", name: "Draft", help: "Not for sale anywhere yet; existing subscriptions go on." },
] as const;

const TRIAL_UNITS = [
  { id: "day", name: "days" },
  { id: "week", name: "weeks" },
  { id: "month", name: "months" },
  { id: "year", name: "years" },
];

type Terms = {
  recurring_interval?: string | null;
  recurring_interval_count?: number | null;
  trial_interval?: string | null;
  trial_interval_count?: number | null;
  visibility?: string;
};

/** "Monthly", "Every 3 months", "One-time". */
export function BillingField(_props: { label?: string }) {
  const r = useRecordContext<Terms>();
  if (!r) return null;
  return (
    <Typography component="span" variant="body2" data-testid="billing">
      {billingText(r.recurring_interval, r.recurring_interval_count)}
    </Typography>
  );
}

/** "14 days", or a dash without a trial. */
export function TrialField(_props: { label?: string }) {
  const r = useRecordContext<Terms>();
  if (!r) return null;
  return (
    <Typography component="span" variant="body2" data-testid="trial">
      {trialText(r.trial_interval, r.trial_interval_count)}
    </Typography>
  );
}

/** The visibility as a chip, what it means on hover. */
export function VisibilityField(_props: { label?: string }) {
  const r = useRecordContext<Terms>();
  const v = VISIBILITIES.find((x) => x.id === r?.visibility);
  if (!v) return null;
  return (
    <Tooltip title={v.help}>
      <Chip
        size="small"
        variant="outlined"
        color={v.id === "public" ? "success" : v.id === "draft" ? "warning" : "default"}
        label={v.name}
      />
    </Tooltip>
  );
}

/** Every how many intervals it bills and the free trial (a recurring product's), and the visibility with what it means. */
export function TermsInputs() {
  return (
    <FormDataConsumer<Terms>>
      {({ formData }) => (
        <>
          {formData.recurring_interval ? (
            <Box sx={{ display: "flex", flexWrap: "wrap", columnGap: 2 }}>
              <NumberInput
                source="recurring_interval_count"
                label={`Bill every … ${formData.recurring_interval}s`}
                min={1}
                max={999}
                step={1}
                defaultValue={1}
                helperText="1 bills every period; 3 with months, quarterly"
                sx={{ width: 220 }}
              />
              <NumberInput
                source="trial_interval_count"
                label="Free trial"
                min={1}
                max={1000}
                step={1}
                helperText="Empty: no trial"
                sx={{ width: 140 }}
              />
              <SelectInput
                source="trial_interval"
                label="Trial in"
                choices={TRIAL_UNITS}
                defaultValue="day"
                helperText={false}
                sx={{ width: 140 }}
              />
            </Box>
          ) : null}
          <SelectInput
            source="visibility"
            label="Visibility"
            choices={VISIBILITIES.map((v) => ({ id: v.id, name: v.name }))}
            defaultValue="public"
            helperText={VISIBILITIES.find((v) => v.id === formData.visibility)?.help ?? "Who can see and buy it"}
            sx={{ width: 220 }}
          />
        </>
      )}
    </FormDataConsumer>
  );
}

/** The terms as the create / update body wants them: the count and trial only when recurring, a trial both or neither. */
export function termsBody(data: Terms): Record<string, unknown> {
  const recurring = !!data.recurring_interval;
  const trialCount = recurring && data.trial_interval_count ? Number(data.trial_interval_count) : null;
  return {
    recurring_interval_count: recurring ? Number(data.recurring_interval_count || 1) : null,
    trial_interval: trialCount ? data.trial_interval || "day" : null,
    trial_interval_count: trialCount,
    visibility: data.visibility || "public",
  };
}
