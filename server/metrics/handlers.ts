// HTTP handlers of the metrics operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { getMetrics, metricsLimits } from "./service.js";

type MetricOps = "metrics:get" | "metrics:limits";

export const metricHandlers: Handlers<MetricOps> = {
  "metrics:get": async ({ query }, ctx) => ({
    status: 200,
    body: await getMetrics(ctx.db, orgCaller(ctx), query),
  }),
  "metrics:limits": async (_req, ctx) => {
    orgCaller(ctx);
    return { status: 200, body: metricsLimits() };
  },
};
