// The CustomerMeter (merchant), CustomerCustomerMeter (portal) and CustomerStateMeter wire shapes:
// a customer's meter with its consumed and credited units and the balance between them.
import type { components } from "../../generated/types.js";
import { toCustomer } from "../customers/models.js";
import type { CustomerRow } from "../customers/repository.js";
import { iso, isoRequired } from "../kit/time.js";
import { toMeter, type MeterRow } from "../meters/models.js";
import type { Usage } from "../meters/usage.js";

export type CustomerMeterOut = components["schemas"]["CustomerMeter"];
export type PortalCustomerMeterOut = components["schemas"]["CustomerCustomerMeter"];
export type StateMeterOut = components["schemas"]["CustomerStateMeter"];

export interface CustomerMeterRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  customer_id: string;
  meter_id: string;
}

/** A customer meter with what it is read with. */
export interface CustomerMeterView {
  row: CustomerMeterRow;
  customer: CustomerRow;
  meter: MeterRow;
  usage: Usage;
}

function units(v: CustomerMeterView) {
  const credited = Math.trunc(v.usage.credited);
  return { consumed_units: v.usage.consumed, credited_units: credited, balance: credited - v.usage.consumed };
}

export function toStateMeter(v: CustomerMeterView): StateMeterOut {
  return {
    id: v.row.id,
    created_at: isoRequired(v.row.created_at),
    modified_at: iso(v.row.modified_at),
    meter_id: v.row.meter_id,
    ...units(v),
  };
}

export function toCustomerMeter(v: CustomerMeterView): CustomerMeterOut {
  return Object.assign(toStateMeter(v), { customer_id: v.row.customer_id, customer: toCustomer(v.customer), meter: toMeter(v.meter) });
}

export function toPortalCustomerMeter(v: CustomerMeterView): PortalCustomerMeterOut {
  return Object.assign(toStateMeter(v), {
    customer_id: v.row.customer_id,
    meter: {
      created_at: isoRequired(v.meter.created_at),
      modified_at: iso(v.meter.modified_at),
      id: v.meter.id,
      name: v.meter.name,
      unit: v.meter.unit,
      custom_label: v.meter.custom_label,
      custom_multiplier: v.meter.custom_multiplier,
    },
  });
}
