// OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (or OTEL_SDK_DISABLED=true):
// the one place that reads the OTEL_* settings and starts the SDK; off, the @opentelemetry/api
// calls elsewhere are no-ops. server/cli/api.ts and worker.ts start it first so `http` and `pg`
// are instrumented. Spans go over OTLP/HTTP; the context follows requests into workflows and
// through outbox rows, so a webhook delivery joins the trace that caused it.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { context, propagation, ROOT_CONTEXT, trace, type Context, type Span } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import { setting, type Env } from "../config.js";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";

export interface TracingSettings {
  endpoint: string;
  serviceName?: string;
}

/** The tracing settings of the environment; null (tracing off) unless an OTLP endpoint is set. */
export function tracingSettings(env?: Env): TracingSettings | null {
  const endpoint = setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", env) ?? setting("OTEL_EXPORTER_OTLP_ENDPOINT", env);
  if (!endpoint || setting("OTEL_SDK_DISABLED", env)) return null;
  return { endpoint, serviceName: setting("OTEL_SERVICE_NAME", env) };
}

export interface Tracing {
  /** For the worker's workflow span sink (the interceptors' makeWorkflowExporter). */
  exporter: SpanExporter;
  resource: Resource;
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

let active: Tracing | null = null;

/** The running SDK of this process, or null when tracing is off. */
export function tracing(): Tracing | null {
  return active;
}

/**
 * Starts the SDK (once per process) when `settings` is not null; call before express, pg and the
 * Temporal client are loaded. `role` names the service unless OTEL_SERVICE_NAME does.
 */
export async function startTracing(settings: TracingSettings | null, role: "api" | "worker"): Promise<Tracing | null> {
  if (!settings || active) return active;
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { Resource },
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const resource = new Resource({ "service.name": settings.serviceName ?? `borealis-${role}` });
  // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself (JSON over HTTP).
  const exporter = new OTLPTraceExporter();
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  // AsyncLocalStorage context and the W3C trace context propagator.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not traced.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ""),
        // Only requests made inside a trace (webhook deliveries, provider calls of a request).
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  // `http` imported from ES modules is not seen by the require hook: require it once now (the
  // instrumentation patches it), then make the ES module bindings (`import { request } from
  // "node:http"`) follow the patched functions.
  const require = createRequire(import.meta.url);
  require("node:http");
  require("node:https");
  syncBuiltinESMExports();
  active = {
    exporter,
    resource,
    shutdown: async () => {
      await provider.shutdown();
      active = null;
    },
  };
  return active;
}

/** The W3C traceparent of the current span, to keep beside work done later (outbox rows); undefined when not tracing. */
export function currentTraceContext(): string | undefined {
  if (!active) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `fn` in a span named `name` whose parent is the context kept in `traceContext` (a
 * traceparent from currentTraceContext), linked to the current span when that is another trace;
 * just runs `fn` when not tracing.
 */
export async function inKeptTrace<T>(
  name: string,
  traceContext: string | null | undefined,
  attributes: Record<string, string | number>,
  fn: (span?: Span) => Promise<T>,
): Promise<T> {
  if (!active) return fn();
  const current = trace.getSpanContext(context.active());
  const parent: Context = traceContext ? propagation.extract(ROOT_CONTEXT, { traceparent: traceContext }) : context.active();
  const kept = trace.getSpanContext(parent);
  const links = current && kept && current.traceId !== kept.traceId ? [{ context: current }] : [];
  return trace.getTracer("borealis").startActiveSpan(name, { attributes, links }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      throw err;
    } finally {
      span.end();
    }
  });
}
