// OpenTelemetry traces end to end: the API and worker processes with OTEL_EXPORTER_OTLP_ENDPOINT at
// a small OTLP/HTTP receiver in this test. One confirmed checkout of a product with a benefit: the
// confirm's server span, the grant workflow it starts and the webhook deliveries it causes
// (order.paid, benefit_grant.created), with their POSTs, are one trace.
import type { ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orgWithToken, startProcess, stopProcess, useTestDatabase } from "../harness/index.js";
import { sleep } from "../../server/kit/time.js";

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface Span extends OtlpSpan {
  service: string;
}
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue;
};

/** An OTLP/HTTP receiver of traces in the JSON protocol: POST /v1/traces. */
function otlpReceiver() {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces" || !String(req.headers["content-type"]).includes("json")) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const rs of body.resourceSpans) {
        const service = String(rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue);
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, service });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return { spans, server };
}

/** The webhook receiver: every POST answered 200, kept with its headers. */
function webhookReceiver() {
  const received: { headers: IncomingHttpHeaders; body: { type: string } }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string } });
      res.writeHead(200).end();
    });
  });
  return { received, server };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function until<T>(what: string, f: () => T | undefined | false, timeoutMs = 30_000, seen: () => unknown = () => ""): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; spans: ${JSON.stringify(seen())}`);
    await sleep(200);
  }
}

describe("OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set)", () => {
  const otlp = otlpReceiver();
  const names = () =>
    otlp.spans.map((s) => `${s.service} ${s.name} ${s.traceId.slice(0, 6)} ${s.spanId.slice(0, 6)}<${(s.parentSpanId ?? "").slice(0, 6)}`);
  const hooks = webhookReceiver();
  const db = useTestDatabase();
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let apiUrl = "";
  let hooksUrl = "";

  beforeAll(async () => {
    const otlpUrl = await listen(otlp.server);
    hooksUrl = await listen(hooks.server);
    const env = {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
      WEBHOOKS_ALLOW_HTTP: "1",
      WEBHOOKS_ALLOW_LOOPBACK: "1",
      PORT: "0",
    };
    const started = await Promise.all([
      startProcess("api", env, (l) => l.msg === "api listening"),
      startProcess("worker", env, (l) => l.msg === "Temporal worker running"),
    ]);
    api = started[0].child;
    apiUrl = String(started[0].line.url);
    worker = started[1].child;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopProcess(api), stopProcess(worker)]);
    otlp.server.close();
    hooks.server.close();
  });

  it("follows a checkout from the confirm request through its workflow to the webhook deliveries", async () => {
    const { token } = await orgWithToken(db.knex);
    const call = async (method: string, path: string, body?: unknown, auth = true) => {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { "content-type": "application/json", ...(auth && { authorization: `Bearer ${token}` }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
      return { json, requestId: res.headers.get("x-request-id") };
    };

    const benefit = await call("POST", "/v1/benefits/", {
      type: "custom",
      description: "Priority support",
      properties: { note: "Mail us" },
    });
    const product = await call("POST", "/v1/products/", {
      name: "Traced",
      prices: [{ amount_type: "fixed", price_amount: 2500, price_currency: "usd" }],
    });
    await call("POST", `/v1/products/${String(product.json.id)}/benefits`, { benefits: [benefit.json.id] });
    await call("POST", "/v1/webhooks/endpoints", {
      url: `${hooksUrl}/hooks`,
      format: "raw",
      events: ["order.paid", "benefit_grant.created"],
    });
    const checkout = await call("POST", "/v1/checkouts/", { products: [product.json.id] });
    const confirm = await call(
      "POST",
      `/v1/checkouts/client/${String(checkout.json.client_secret)}/confirm`,
      {
        customer_email: "traced@example.com",
        customer_name: "Traced",
        customer_billing_address: { country: "FR" },
        confirmation_token_id: "tok_sandbox_success",
      },
      false,
    );
    expect(confirm.json.status).toBe("confirmed");

    // Both webhooks arrive, each with the trace context of its cause.
    await until("both webhooks", () => ["order.paid", "benefit_grant.created"].every((t) => hooks.received.some((r) => r.body.type === t)));

    // The confirm's server span: named by its route, with the operation and the request id.
    const confirmSpan = await until("the confirm span", () =>
      otlp.spans.find((s) => s.service === "borealis-api" && attr(s, "borealis.request_id") === confirm.requestId),
    );
    expect(confirmSpan.name).toBe("POST /v1/checkouts/client/{client_secret}/confirm");
    expect(confirmSpan.kind).toBe(2); // SERVER
    expect(attr(confirmSpan, "borealis.operation_id")).toMatch(/confirm/);
    const inTrace = () => otlp.spans.filter((s) => s.traceId === confirmSpan.traceId);
    const named = (prefix: string, service?: string) =>
      inTrace().find((s) => s.name.startsWith(prefix) && (!service || s.service === service));

    // The workflow the confirm started, and its activity, in the worker, in the same trace.
    const u = <T>(what: string, f: () => T | undefined | false) => until(what, f, 30_000, names);
    const started = await until("the workflow start", () => named("StartWorkflow:benefitGrantJobWorkflow", "borealis-api"));
    const run = await u("the workflow run", () => named("RunWorkflow:benefitGrantJobWorkflow", "borealis-worker"));
    const activity = await u("the activity run", () => named("RunActivity:runBenefitGrantJob", "borealis-worker"));
    expect(run.parentSpanId).toBe(started.spanId);
    const byId = new Map(inTrace().map((s) => [s.spanId, s]));
    const ancestors = (s: Span) => {
      const out: Span[] = [];
      for (let p = s.parentSpanId && byId.get(s.parentSpanId); p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p);
      return out;
    };
    expect(ancestors(activity)).toContain(run);
    expect(ancestors(run)).toContain(confirmSpan);

    // The deliveries: order.paid's under the confirm, benefit_grant.created's under the workflow's
    // activity; each the parent of its POST (the http instrumentation's client span).
    const paid = await u("the order.paid delivery span", () => named("webhook delivery order.paid", "borealis-worker"));
    const granted = await u("the benefit_grant.created delivery span", () =>
      named("webhook delivery benefit_grant.created", "borealis-worker"),
    );
    expect(ancestors(paid)).toContain(confirmSpan);
    expect(ancestors(granted)).toContain(activity);
    expect(ancestors(granted)).toContain(confirmSpan);
    for (const delivery of [paid, granted]) {
      const post = await until(`the POST of ${delivery.name}`, () =>
        inTrace().find((s) => s.parentSpanId === delivery.spanId && s.kind === 3),
      );
      expect(post.name).toBe("POST");
      expect(Number(attr(post, "http.status_code") ?? attr(post, "http.response.status_code"))).toBe(200);
    }
    // The receiver was handed the trace too (W3C traceparent).
    for (const r of hooks.received) expect(r.headers.traceparent).toContain(confirmSpan.traceId);
  }, 90_000);
});
