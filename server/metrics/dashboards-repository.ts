// Every statement on metric_dashboards, scoped to the caller's organization.
import type { Knex } from "knex";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import { insertReturning, updateReturning } from "../kit/rows.js";
import type { MetricSlug } from "./definitions.js";

export interface MetricDashboardRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  name: string;
  metrics: MetricSlug[];
}

/** The organization's dashboards (within `organizationIds` when given), oldest first. */
export function dashboardsOf(db: Knex, caller: OrganizationCaller, organizationIds: string[]): Promise<MetricDashboardRow[]> {
  const q = db("metric_dashboards")
    .where("organization_id", caller.organizationId)
    .orderBy([{ column: "created_at" }, { column: "id" }]);
  if (organizationIds.length) q.whereIn("organization_id", organizationIds);
  return q;
}

export async function findDashboard(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<MetricDashboardRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db("metric_dashboards").where({ organization_id: caller.organizationId, id }).first();
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<MetricDashboardRow | undefined>;
}

export function insertDashboard(
  db: Knex,
  values: Pick<MetricDashboardRow, "organization_id" | "name" | "metrics">,
): Promise<MetricDashboardRow> {
  return insertReturning<MetricDashboardRow>(db, "metric_dashboards", values);
}

export function updateDashboard(db: Knex, id: string, patch: Partial<MetricDashboardRow>): Promise<MetricDashboardRow> {
  return updateReturning<MetricDashboardRow>(db, "metric_dashboards", id, patch);
}

export async function deleteDashboard(db: Knex, id: string): Promise<void> {
  await db("metric_dashboards").where({ id }).delete();
}
