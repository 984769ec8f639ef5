// HTTP handlers of the metrics operations: the report, its CSV export, its limits, and the saved
// dashboards.
import { orgCaller, type Handlers } from "../kit/context.js";
import { createDashboard, deleteDashboard, getDashboard, listDashboards, updateDashboard } from "./dashboards.js";
import { exportMetrics } from "./export.js";
import { getMetrics, metricsLimits } from "./service.js";

type MetricOps =
  | "metrics:get"
  | "metrics:limits"
  | "metrics:export"
  | "metrics:list_dashboards"
  | "metrics:create_dashboard"
  | "metrics:get_dashboard"
  | "metrics:update_dashboard"
  | "metrics:delete_dashboard";

export const metricHandlers: Handlers<MetricOps> = {
  "metrics:get": async ({ query }, ctx) => ({
    status: 200,
    body: await getMetrics(ctx.db, orgCaller(ctx), query),
  }),
  "metrics:limits": async (_req, ctx) => {
    orgCaller(ctx);
    return { status: 200, body: metricsLimits() };
  },
  "metrics:export": async ({ query }, ctx) => ({
    status: 200,
    body: await exportMetrics(ctx.db, orgCaller(ctx), query),
  }),
  "metrics:list_dashboards": async ({ query }, ctx) => ({
    status: 200,
    body: await listDashboards(ctx.db, orgCaller(ctx), query),
  }),
  "metrics:create_dashboard": async ({ body }, ctx) => ({
    status: 201,
    body: await createDashboard(ctx.db, orgCaller(ctx), body),
  }),
  "metrics:get_dashboard": async ({ params }, ctx) => ({
    status: 200,
    body: await getDashboard(ctx.db, orgCaller(ctx), params.id),
  }),
  "metrics:update_dashboard": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateDashboard(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "metrics:delete_dashboard": async ({ params }, ctx) => {
    await deleteDashboard(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
};
