// The workflow side of the OpenTelemetry interceptors, bundled with the workflows by the worker
// (interceptors.workflowModules) only when tracing is on (server/kit/telemetry.ts). Spans made
// here are deterministic (the workflow's clock and ids) and leave the sandbox through the
// worker's `exporter` sink.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from "@temporalio/interceptors-opentelemetry/lib/workflow/index.js";
import type { WorkflowInterceptors } from "@temporalio/workflow";

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new OpenTelemetryInboundInterceptor()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
