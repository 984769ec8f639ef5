// Every webhook event type delivered for real to a receiver and checked there: the flow of
// every-event-flow.ts (each delivery verified by the official client's validateEvent, in Polar's
// bytes, its data equal to the API's GET at that moment).
import { describe, expect, it } from "vitest";
import { useWorkflowInfra } from "../harness/index.js";
import { ALL_TYPES, runEveryEvent, useEveryEventHarness } from "./every-event-flow.js";

const infra = useWorkflowInfra();

describe("every webhook event type", () => {
  const h = useEveryEventHarness(infra);

  it("delivers all 27 types, each verified by validateEvent, with data equal to the API's GET at that moment", async () => {
    const { seen, compared } = await runEveryEvent(infra, h);
    expect([...seen].sort()).toEqual([...ALL_TYPES].sort());
    // Field for field: every type but those a later event of the same entity always follows in
    // the same request (order.created → order.paid, subscription.created → subscription.active,
    // refund.created → refund.updated, order.updated → order.refunded).
    expect(ALL_TYPES.filter((t) => !compared.has(t)).sort()).toEqual(["order.created", "order.updated", "refund.created", "subscription.created"]);
  }, 240_000);
});
