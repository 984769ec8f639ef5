// The 31 metrics: what each is, how it reads (scalar, currency in minor units, percentage as a
// fraction) and how its total over the periods is made. docs/USAGE.md ("Metrics") defines each.
import type { components } from "../../generated/types.js";

type Schemas = components["schemas"];
export type MetricSlug = keyof Schemas["Metrics"];
export type MetricType = Schemas["MetricType"];

/**
 * How a metric's total is made: `sum` of the periods; `last` period's value (stocks: cumulative
 * revenue, active subscriptions, MRR); or recomputed over all the periods' orders or checkouts.
 */
export type TotalKind = "sum" | "last" | "average_order_value" | "net_average_order_value" | "conversion";

export interface MetricDefinition {
  slug: MetricSlug;
  display_name: string;
  type: MetricType;
  total: TotalKind;
  /** The statement it is computed from. */
  source: Source;
}

/** orders' orderBuckets, subscriptions' subscriptionDeltas and cancellationBuckets, checkouts' checkoutBuckets. */
export type Source = "orders" | "subscriptions" | "cancellations" | "checkouts";

/** The reasons a customer gives for canceling (the contract's CustomerCancellationReason), each a metric of its own. */
export const CANCELLATION_REASONS = [
  "customer_service",
  "low_quality",
  "missing_features",
  "switched_service",
  "too_complex",
  "too_expensive",
  "unused",
  "other",
] as const satisfies readonly Schemas["CustomerCancellationReason"][];
export type CancellationReasonSlug = (typeof CANCELLATION_REASONS)[number];

const REASON_NAMES: Record<CancellationReasonSlug, string> = {
  customer_service: "Customer Service",
  low_quality: "Low Quality",
  missing_features: "Missing Features",
  switched_service: "Switched Service",
  too_complex: "Too Complex",
  too_expensive: "Too Expensive",
  unused: "Unused",
  other: "Other",
};

export const METRICS: readonly MetricDefinition[] = [
  { slug: "orders", display_name: "Orders", type: "scalar", total: "sum", source: "orders" },
  { slug: "revenue", display_name: "Revenue", type: "currency", total: "sum", source: "orders" },
  { slug: "net_revenue", display_name: "Net Revenue", type: "currency", total: "sum", source: "orders" },
  { slug: "cumulative_revenue", display_name: "Cumulative Revenue", type: "currency", total: "last", source: "orders" },
  { slug: "net_cumulative_revenue", display_name: "Net Cumulative Revenue", type: "currency", total: "last", source: "orders" },
  { slug: "average_order_value", display_name: "Average Order Value", type: "currency", total: "average_order_value", source: "orders" },
  {
    slug: "net_average_order_value",
    display_name: "Net Average Order Value",
    type: "currency",
    total: "net_average_order_value",
    source: "orders",
  },
  { slug: "one_time_products", display_name: "One-Time Products", type: "scalar", total: "sum", source: "orders" },
  { slug: "one_time_products_revenue", display_name: "One-Time Products Revenue", type: "currency", total: "sum", source: "orders" },
  {
    slug: "one_time_products_net_revenue",
    display_name: "One-Time Products Net Revenue",
    type: "currency",
    total: "sum",
    source: "orders",
  },
  { slug: "new_subscriptions", display_name: "New Subscriptions", type: "scalar", total: "sum", source: "subscriptions" },
  { slug: "new_subscriptions_revenue", display_name: "New Subscriptions Revenue", type: "currency", total: "sum", source: "orders" },
  {
    slug: "new_subscriptions_net_revenue",
    display_name: "New Subscriptions Net Revenue",
    type: "currency",
    total: "sum",
    source: "orders",
  },
  { slug: "renewed_subscriptions", display_name: "Renewed Subscriptions", type: "scalar", total: "sum", source: "orders" },
  {
    slug: "renewed_subscriptions_revenue",
    display_name: "Renewed Subscriptions Revenue",
    type: "currency",
    total: "sum",
    source: "orders",
  },
  {
    slug: "renewed_subscriptions_net_revenue",
    display_name: "Renewed Subscriptions Net Revenue",
    type: "currency",
    total: "sum",
    source: "orders",
  },
  { slug: "active_subscriptions", display_name: "Active Subscriptions", type: "scalar", total: "last", source: "subscriptions" },
  {
    slug: "monthly_recurring_revenue",
    display_name: "Monthly Recurring Revenue",
    type: "currency",
    total: "last",
    source: "subscriptions",
  },
  {
    slug: "committed_monthly_recurring_revenue",
    display_name: "Committed Monthly Recurring Revenue",
    type: "currency",
    total: "last",
    source: "subscriptions",
  },
  { slug: "checkouts", display_name: "Checkouts", type: "scalar", total: "sum", source: "checkouts" },
  { slug: "succeeded_checkouts", display_name: "Succeeded Checkouts", type: "scalar", total: "sum", source: "checkouts" },
  { slug: "checkouts_conversion", display_name: "Checkouts Conversion Rate", type: "percentage", total: "conversion", source: "checkouts" },
  { slug: "canceled_subscriptions", display_name: "Canceled Subscriptions", type: "scalar", total: "sum", source: "cancellations" },
  ...CANCELLATION_REASONS.map((reason): MetricDefinition => ({
    slug: `canceled_subscriptions_${reason}` as const,
    display_name: `Canceled Subscriptions - ${REASON_NAMES[reason]}`,
    type: "scalar",
    total: "sum",
    source: "cancellations",
  })),
];

/** The first day metrics can be asked for, and the shortest and longest range (in days) per interval (Polar's). */
export const MIN_DATE = "2023-01-01";
export const MIN_DAYS = { hour: 0, day: 0, week: 14, month: 60, year: 366 } as const;
export const MAX_DAYS = { hour: 7, day: 366, week: 365, month: 365 * 4, year: 365 * 10 } as const;
