// Every webhook event type delivered for real to a receiver and checked there: the flow of
// every-event-flow.ts (each delivery verified by the official client's validateEvent, in Polar's
// bytes, its data equal to the API's GET at that moment), then all of them verified by Polar's
// Python client's `validate_event`, which refuses a delivery whose body was changed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPython, useWorkflowInfra } from "../harness/index.js";
import { ALL_TYPES, runEveryEvent, useEveryEventHarness } from "./every-event-flow.js";
import { headersOf } from "./receiver.js";

const infra = useWorkflowInfra();

describe("every webhook event type", () => {
  const h = useEveryEventHarness(infra);

  it("delivers all 27 types, each verified by validateEvent (TypeScript and Python), with data equal to the API's GET at that moment", async () => {
    const deliveries: { body: string; headers: Record<string, string> }[] = [];
    let secret = "";
    const { seen, compared } = await runEveryEvent(infra, h, {
      onDelivery: async (r, endpointSecret) => {
        deliveries.push({ body: r.body, headers: headersOf(r) });
        secret = endpointSecret;
      },
    });
    expect([...seen].sort()).toEqual([...ALL_TYPES].sort());
    // Field for field: every type but those a later event of the same entity always follows in
    // the same request (order.created → order.paid, subscription.created → subscription.active,
    // refund.created → refund.updated, order.updated → order.refunded).
    expect(ALL_TYPES.filter((t) => !compared.has(t)).sort()).toEqual([
      "order.created",
      "order.updated",
      "refund.created",
      "subscription.created",
    ]);

    const tampered = { headers: deliveries[0].headers, body: deliveries[0].body.replace('"data":{', '"data":{"tampered":true,') };
    expect(tampered.body).not.toBe(deliveries[0].body);
    const file = join(mkdtempSync(join(tmpdir(), "every-event-")), "deliveries.json");
    writeFileSync(file, JSON.stringify([...deliveries, tampered]));
    const verified: { type?: string; error?: string; detail?: string }[] = JSON.parse(
      await runPython(new URL("./validate_events.py", import.meta.url), { secret, file }),
    );
    rmSync(dirname(file), { recursive: true, force: true });
    expect(verified.slice(0, -1).filter((v) => !v.type)).toEqual([]);
    expect(verified.slice(0, -1).map((v) => v.type)).toEqual(deliveries.map((d) => JSON.parse(d.body).type));
    expect(new Set(verified.map((v) => v.type).filter(Boolean))).toEqual(new Set(ALL_TYPES));
    expect(verified.at(-1)).toMatchObject({ error: "WebhookVerificationError" });
  }, 240_000);
});
