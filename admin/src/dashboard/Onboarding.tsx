// Home's checklist for a new organization: create a product, share a checkout link, add a webhook
// endpoint or call the API with a token (the SDK), take real payments through Stripe. Each step is
// read from the server; the list hides itself once all are done, or when dismissed (per
// organization, in this browser).
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { useDataProvider } from "react-admin";
import { Box, Button, Card, CardContent, LinearProgress, List, ListItem, ListItemIcon, ListItemText, Typography } from "@mui/material";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import RadioButtonUncheckedIcon from "@mui/icons-material/RadioButtonUnchecked";
import type { BorealisDataProvider } from "../dataProvider";
import type { OnboardingState } from "../dataProvider/metrics";
import { appConfig } from "../config";

const dismissedKey = (organizationId: string) => `borealis.onboarding.dismissed.${organizationId}`;

interface Step {
  title: string;
  done: boolean;
  detail: string;
  action?: { label: string; to: string };
  extra?: React.ReactNode;
}

function steps(state: OnboardingState): Step[] {
  const config = appConfig();
  return [
    {
      title: "Create a product",
      done: state.products > 0,
      detail: "What you sell: a one-time purchase or a subscription, with its prices and benefits.",
      action: { label: "Create a product", to: "/products/create" },
    },
    {
      title: "Share a checkout link",
      done: state.checkoutLinks > 0,
      detail: "A link to a hosted checkout for your products, to put on your site or send to buyers.",
      action: { label: "Create a checkout link", to: "/checkout-links/create" },
    },
    {
      title: "Add a webhook or use the SDK",
      done: state.webhookEndpoints > 0 || state.tokensUsed > 0,
      detail: "Hear of orders and subscriptions at a webhook endpoint, or call the API with an access token.",
      action: { label: "Add a webhook endpoint", to: "/webhooks-endpoints/create" },
      extra: (
        <Box component="figure" aria-label="SDK snippet" sx={{ m: 0, mt: 1 }}>
          <Box
            component="pre"
            tabIndex={0}
            sx={{ m: 0, p: 1, bgcolor: "grey.100", borderRadius: 1, fontSize: 12, overflowX: "auto", whiteSpace: "pre" }}
          >
            {`import { Polar } from "@polar-sh/sdk";\nconst polar = new Polar({\n  accessToken: process.env.POLAR_ACCESS_TOKEN,\n  serverURL: "${window.location.origin}",\n});`}
          </Box>
        </Box>
      ),
    },
    {
      title: "Go live with Stripe",
      done: config.live,
      detail:
        config.processor === "stripe"
          ? "Stripe runs in test mode: no money moves. A live secret key (sk_live_…) in STRIPE_SECRET_KEY takes real payments."
          : "Payments run on the sandbox processor: no money moves. Set STRIPE_SECRET_KEY to a live Stripe key to take real payments.",
    },
  ];
}

export function Onboarding({ organizationId }: { organizationId: string }) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [state, setState] = useState<OnboardingState | null>(null);
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(dismissedKey(organizationId)) === "1");
  useEffect(() => {
    dataProvider.getOnboarding().then(
      ({ data }) => setState(data),
      () => setState(null),
    );
  }, [dataProvider]);
  if (dismissed || !state) return null;
  const list = steps(state);
  const done = list.filter((s) => s.done).length;
  if (done === list.length) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="onboarding-title" sx={{ mb: 2 }}>
      <CardContent>
        <Box sx={{ display: "flex", flexWrap: "wrap", justifyContent: "space-between", alignItems: "center", gap: 1 }}>
          <Typography id="onboarding-title" component="h2" variant="h6">
            Get started
          </Typography>
          <Button
            size="small"
            onClick={() => {
              localStorage.setItem(dismissedKey(organizationId), "1");
              setDismissed(true);
            }}
          >
            Hide checklist
          </Button>
        </Box>
        <Typography variant="body2" color="text.secondary" id="onboarding-progress">
          {done} of {list.length} steps done
        </Typography>
        <LinearProgress
          variant="determinate"
          value={(done / list.length) * 100}
          aria-labelledby="onboarding-progress"
          sx={{ my: 1, height: 6, borderRadius: 1 }}
        />
        <List dense disablePadding>
          {list.map((s) => (
            <ListItem
              key={s.title}
              alignItems="flex-start"
              disableGutters
              data-testid="onboarding-step"
              data-done={s.done}
              sx={{ flexWrap: { xs: "wrap", sm: "nowrap" } }}
            >
              <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                {s.done ? (
                  <CheckCircleIcon color="success" titleAccess="Done" />
                ) : (
                  <RadioButtonUncheckedIcon color="action" titleAccess="To do" />
                )}
              </ListItemIcon>
              <ListItemText
                primary={s.title}
                secondary={
                  <>
                    {s.detail}
                    {!s.done && s.extra ? s.extra : null}
                  </>
                }
                slotProps={{ secondary: { component: "div" } }}
                // beside its icon at every width; on a phone the step's button goes under the text
                sx={{ flex: { xs: "1 1 calc(100% - 36px)", sm: "1 1 auto" }, minWidth: 0 }}
              />
              {!s.done && s.action ? (
                <Button
                  component={Link}
                  to={s.action.to}
                  size="small"
                  variant="outlined"
                  sx={{ ml: { xs: "36px", sm: 1 }, mt: 0.5, flexShrink: 0 }}
                >
                  {s.action.label}
                </Button>
              ) : null}
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
