// The deliveries inspector's filter, as the list's and the replay's query.

export interface DeliveryFilter {
  event_type: string;
  succeeded: "" | "true" | "false";
  start: string;
  end: string;
}

/** The inspector's filter as the deliveries list's query (and the replay's body). */
export function deliveryQuery(f: DeliveryFilter): Record<string, unknown> {
  return {
    ...(f.event_type ? { event_type: [f.event_type] } : {}),
    ...(f.succeeded ? { succeeded: f.succeeded === "true" } : {}),
    ...(f.start ? { start_timestamp: new Date(`${f.start}T00:00:00`).toISOString() } : {}),
    ...(f.end ? { end_timestamp: new Date(`${f.end}T23:59:59.999`).toISOString() } : {}),
  };
}
