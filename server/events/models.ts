// The Event wire shapes: a UserEvent (ingested), or one of the twelve SystemEvents the platform writes,
// each with the metadata the contract gives its name; EventName statistics, and event types.
import type { components } from "../../generated/types.js";
import { toCustomer } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import type { EventNameRow, EventRow } from "../meters/events-repository.js";
import { iso, isoRequired } from "../kit/time.js";
import type { EventTypeRow, TypedNameRow } from "./event-types-repository.js";

type Schemas = components["schemas"];
export type EventOut = Schemas["Event"];
export type SystemEventOut = Schemas["SystemEvent"];
export type EventNameOut = Schemas["EventName"];
type BenefitType = Schemas["BenefitType"];

const BENEFIT_TYPES: readonly BenefitType[] = ["custom", "discord", "github_repository", "downloadables", "license_keys", "meter_credit"];
const benefitType = (v: unknown): BenefitType => BENEFIT_TYPES.find((t) => t === v) ?? "custom";
const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** The system events' types in words. */
export const SYSTEM_LABELS: Record<string, string> = {
  "balance.credit_order": "Order paid from balance",
  "benefit.granted": "Benefit granted",
  "benefit.cycled": "Benefit cycled",
  "benefit.revoked": "Benefit revoked",
  "benefit.updated": "Benefit updated",
  "meter.credited": "Meter credited",
  "meter.reset": "Meter reset",
  "subscription.cycled": "Subscription cycled",
  "subscription.revoked": "Subscription revoked",
  "subscription.product_updated": "Subscription product updated",
  "subscription.seats_updated": "Subscription seats updated",
  "subscription.update_cleared": "Subscription update cleared",
};

/** The label of an event's type: a system event's in words; a user event's is its type's (its name until renamed). */
export function eventLabel(name: string, source: "system" | "user", typeLabel?: string | null): string {
  return source === "system" ? (SYSTEM_LABELS[name] ?? name) : (typeLabel ?? name);
}

/** The value at a dotted path of an event's metadata (`subject`, `metadata.subject`), if there is one. */
function metadataAt(metadata: unknown, path: string): unknown {
  let value = metadata;
  for (const part of path.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A user event's label: the value its type's selector finds in its metadata (when not empty, as Polar's), else the type's label. */
function userEventLabel(row: EventRow, type: EventTypeRow | undefined): string {
  if (type?.label_property_selector) {
    const dynamic = metadataAt(row.metadata, type.label_property_selector);
    if (dynamic !== undefined && dynamic !== null && dynamic !== "" && dynamic !== false && dynamic !== 0) {
      return typeof dynamic === "object" ? JSON.stringify(dynamic) : String(dynamic);
    }
  }
  return eventLabel(row.name, "user", type?.label);
}

/** A balance.credit_order's metadata: the optional keys only when the event carries them. */
function creditOrder(m: Record<string, unknown>): Schemas["BalanceCreditOrderMetadata"] {
  const out: Schemas["BalanceCreditOrderMetadata"] = {
    order_id: text(m.order_id),
    amount: Math.trunc(Number(m.amount ?? 0)),
    currency: text(m.currency),
    tax_amount: Math.trunc(Number(m.tax_amount ?? 0)),
    fee: Math.trunc(Number(m.fee ?? 0)),
  };
  if (typeof m.product_id === "string") out.product_id = m.product_id;
  if (typeof m.subscription_id === "string") out.subscription_id = m.subscription_id;
  if (typeof m.tax_country === "string") out.tax_country = m.tax_country;
  if (typeof m.tax_state === "string") out.tax_state = m.tax_state;
  return out;
}

function toSystemEvent(base: Omit<Schemas["UserEvent"], "source" | "name" | "metadata">, row: EventRow): SystemEventOut {
  const m = row.metadata;
  // `base` is the fresh object toEvent built for this row: filled in place with Object.assign, not
  // `{ ...base, more }` (V8 11 builds a new hidden class for every spread followed by properties).
  const s = Object.assign(base, { source: "system" as const });
  const grant = { benefit_id: text(m.benefit_id), benefit_grant_id: text(m.benefit_grant_id), benefit_type: benefitType(m.benefit_type) };
  switch (row.name) {
    case "balance.credit_order":
      return Object.assign(s, { name: "balance.credit_order" as const, metadata: creditOrder(m) });
    case "benefit.granted":
      return Object.assign(s, { name: "benefit.granted" as const, metadata: grant });
    case "benefit.cycled":
      return Object.assign(s, { name: "benefit.cycled" as const, metadata: grant });
    case "benefit.revoked":
      return Object.assign(s, { name: "benefit.revoked" as const, metadata: grant });
    case "benefit.updated":
      return Object.assign(s, { name: "benefit.updated" as const, metadata: grant });
    case "meter.credited":
      return Object.assign(s, {
        name: "meter.credited" as const,
        metadata: { meter_id: text(m.meter_id), units: Math.trunc(Number(m.units ?? 0)), rollover: m.rollover === true },
      });
    case "meter.reset":
      return Object.assign(s, { name: "meter.reset" as const, metadata: { meter_id: text(m.meter_id) } });
    case "subscription.cycled":
      return Object.assign(s, { name: "subscription.cycled" as const, metadata: { subscription_id: text(m.subscription_id) } });
    case "subscription.revoked":
      return Object.assign(s, { name: "subscription.revoked" as const, metadata: { subscription_id: text(m.subscription_id) } });
    case "subscription.product_updated":
      return Object.assign(s, {
        name: "subscription.product_updated" as const,
        metadata: {
          subscription_id: text(m.subscription_id),
          old_product_id: text(m.old_product_id),
          new_product_id: text(m.new_product_id),
        },
      });
    case "subscription.seats_updated":
      return Object.assign(s, {
        name: "subscription.seats_updated" as const,
        metadata: {
          subscription_id: text(m.subscription_id),
          old_seats: Math.trunc(Number(m.old_seats ?? 0)),
          new_seats: Math.trunc(Number(m.new_seats ?? 0)),
          proration_behavior: text(m.proration_behavior),
        },
      });
    case "subscription.update_cleared":
      return Object.assign(s, { name: "subscription.update_cleared" as const, metadata: { subscription_id: text(m.subscription_id) } });
    default:
      throw new Error(`Unknown system event name ${row.name}`);
  }
}

export function toEvent(row: EventRow, customer: CustomerRow | undefined, type?: EventTypeRow): EventOut {
  const base = {
    id: row.id,
    timestamp: isoRequired(row.timestamp),
    organization_id: row.organization_id,
    customer_id: row.customer_id ?? customer?.id ?? null,
    customer: customer ? toCustomer(customer) : null,
    external_customer_id: row.external_customer_id,
    label: row.source === "system" ? eventLabel(row.name, "system") : userEventLabel(row, type),
  };
  if (row.source === "system") return toSystemEvent(base, row);
  return Object.assign(base, { source: "user" as const, name: row.name, metadata: row.metadata });
}

export function toEventName(row: EventNameRow & Pick<TypedNameRow, "label">): EventNameOut {
  return {
    name: row.name,
    label: eventLabel(row.name, row.source, row.label),
    source: row.source,
    occurrences: Number(row.occurrences),
    first_seen: isoRequired(row.first_seen),
    last_seen: isoRequired(row.last_seen),
  };
}

export type EventTypeOut = Schemas["EventType"];
export type EventTypeWithStatsOut = Schemas["EventTypeWithStats"];

export function toEventType(row: EventTypeRow): EventTypeOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    name: row.name,
    label: row.label,
    label_property_selector: row.label_property_selector,
  };
}

/** A name with its statistics and, for a user name, its type; a system name has no type (its id and times are null). */
export function toEventTypeWithStats(row: TypedNameRow): EventTypeWithStatsOut {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    organization_id: row.organization_id,
    name: row.name,
    label: eventLabel(row.name, row.source, row.label),
    label_property_selector: row.label_property_selector,
    source: row.source,
    occurrences: Number(row.occurrences),
    first_seen: isoRequired(row.first_seen),
    last_seen: isoRequired(row.last_seen),
  };
}
