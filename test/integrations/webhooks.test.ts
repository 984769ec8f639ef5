// Polar's webhook adapters, unchanged, receive every event type of the every-event flow
// (test/webhooks/every-event-flow.ts), forwarded byte for byte: @polar-sh/express's Webhooks() in
// an Express 4 app, @polar-sh/nextjs' route handler, and 0.49.0's validateEvent must each accept it.
// Forwarded rather than delivered to endpoints of their own, since a refused event would hold back
// the next ones and hide their failures.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhooks as expressWebhooks } from "@polar-sh/express";
import { Webhooks as nextWebhooks } from "@polar-sh/nextjs";
import express from "express";
import { NextRequest } from "next/server.js";
import { validateEvent as validateEvent049 } from "polar-sdk-049/webhooks.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useWorkflowInfra } from "../harness/index.js";
import { ALL_TYPES, runEveryEvent, useEveryEventHarness } from "../webhooks/every-event-flow.js";

const infra = useWorkflowInfra();

/** What one receiver made of one delivery: the body's type, and the type onPayload got (or why none). */
interface Handled {
  type: string;
  got: string;
}

/** An error in short: a failed parse's issues (path: message), else its text. */
function why(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause && typeof cause === "object" && "issues" in cause && Array.isArray(cause.issues)) {
    return cause.issues.map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join(".")}: ${i.message}`).join("; ");
  }
  return String(err);
}

describe("Polar's webhook adapters, every event type", () => {
  const h = useEveryEventHarness(infra);
  let server: Server;
  let url = "";
  let secret = "";
  // The type the Express app's onPayload got for each webhook-id.
  const expressGot = new Map<string, string>();

  beforeAll(async () => {
    const app = express();
    // As @polar-sh/express documents it; the secret is the flow's endpoint's, known once it exists.
    app.post("/polar/webhooks", express.json(), (req, res, next) =>
      expressWebhooks({
        webhookSecret: secret,
        onPayload: async (payload) => {
          expressGot.set(String(req.headers["webhook-id"]), String(payload.type));
        },
      })(req, res, next),
    );
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/polar/webhooks`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("Express 4's and Next.js' Webhooks() and 0.49.0's validateEvent accept all 27 types", async () => {
    const handled: Record<"express" | "next" | "0.49.0", Handled[]> = { express: [], next: [], "0.49.0": [] };
    const POST = (webhookSecret: string, got: (type: string) => void) =>
      nextWebhooks({ webhookSecret, onPayload: async (payload) => got(payload.type) });

    const { seen } = await runEveryEvent(infra, h, {
      onDelivery: async (r, endpointSecret) => {
        secret = endpointSecret;
        const type = (JSON.parse(r.body) as { type: string }).type;
        const headers = new Headers();
        for (const [name, value] of Object.entries(r.headers))
          if (typeof value === "string" && name !== "host" && name !== "content-length") headers.set(name, value);
        const id = String(headers.get("webhook-id"));

        const viaExpress = await fetch(url, { method: "POST", headers, body: r.body });
        const answer = await viaExpress.text();
        handled.express.push({
          type,
          got: viaExpress.status === 200 ? (expressGot.get(id) ?? "no payload") : `HTTP ${viaExpress.status} ${answer}`,
        });

        let nextGot = "no payload";
        try {
          const res = await POST(
            endpointSecret,
            (t) => (nextGot = t),
          )(new NextRequest(`https://shop.example/api/webhook/polar`, { method: "POST", headers, body: r.body }));
          handled.next.push({ type, got: res.status === 200 ? nextGot : `HTTP ${res.status}` });
        } catch (err) {
          handled.next.push({ type, got: why(err) });
        }

        try {
          handled["0.49.0"].push({ type, got: validateEvent049(r.body, Object.fromEntries(headers), endpointSecret).type });
        } catch (err) {
          handled["0.49.0"].push({ type, got: why(err) });
        }
      },
    });

    expect([...seen].sort()).toEqual([...ALL_TYPES].sort());
    const refused = Object.entries(handled).map(([name, list]) => [name, list.filter((d) => d.got !== d.type)]);
    expect(Object.fromEntries(refused), "refused or mistyped").toEqual({ express: [], next: [], "0.49.0": [] });
    for (const [name, list] of Object.entries(handled)) {
      expect([...new Set(list.map((d) => d.type))].sort(), `${name}: types handled`).toEqual([...ALL_TYPES].sort());
    }
  }, 240_000);
});
