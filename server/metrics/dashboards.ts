// Saved metrics dashboards: a name and the metrics it shows (at most 10, each once: the contract
// holds both), per organization. No webhook event is sent for them, as Polar sends none.
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList } from "../kit/ids.js";
import {
  dashboardsOf,
  deleteDashboard as deleteRow,
  findDashboard,
  insertDashboard,
  updateDashboard as updateRow,
  type MetricDashboardRow,
} from "./dashboards-repository.js";

export type MetricDashboardOut = components["schemas"]["MetricDashboardSchema"];

function toDashboard(row: MetricDashboardRow): MetricDashboardOut {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    modified_at: row.modified_at?.toISOString() ?? null,
    organization_id: row.organization_id,
    name: row.name,
    metrics: row.metrics,
  };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid(["body", "name"], "String should have at least 1 character", "string_too_short", name);
  return trimmed;
}

export async function listDashboards(
  db: Knex,
  caller: OrganizationCaller,
  query: OpQuery<"metrics:list_dashboards">,
): Promise<MetricDashboardOut[]> {
  return (await dashboardsOf(db, caller, asList(query.organization_id))).map(toDashboard);
}

export async function getDashboard(db: Knex, caller: OrganizationCaller, id: string): Promise<MetricDashboardOut> {
  const row = await findDashboard(db, caller, id);
  if (!row) throw new ResourceNotFound("Metric dashboard not found.");
  return toDashboard(row);
}

export async function createDashboard(
  db: Knex,
  caller: OrganizationCaller,
  input: OpBody<"metrics:create_dashboard">,
): Promise<MetricDashboardOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(["body", "organization_id"], "Organization not found or not accessible with this token.");
  }
  const row = await insertDashboard(db, {
    organization_id: caller.organizationId,
    name: checkName(input.name),
    metrics: input.metrics ?? [],
  });
  return toDashboard(row);
}

export async function updateDashboard(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: OpBody<"metrics:update_dashboard">,
): Promise<MetricDashboardOut> {
  return db.transaction(async (trx) => {
    const row = await findDashboard(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Metric dashboard not found.");
    const patch: Partial<MetricDashboardRow> = { modified_at: new Date() };
    if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
    if (input.metrics !== undefined && input.metrics !== null) patch.metrics = input.metrics;
    return toDashboard(await updateRow(trx, row.id, patch));
  });
}

export async function deleteDashboard(db: Knex, caller: OrganizationCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await findDashboard(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Metric dashboard not found.");
    await deleteRow(trx, row.id);
  });
}
