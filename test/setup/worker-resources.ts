// What each vitest worker (VITEST_POOL_ID 1..maxWorkers) owns while test files run in parallel:
// a database copied from the run's migrated one (CREATE DATABASE … TEMPLATE) and a Temporal
// namespace. A worker runs one file at a time, so its files see the world one file at a time.
// No vitest imports: test/setup/global.ts runs outside the workers.
import { Connection } from "@temporalio/client";

/** The pool id of this vitest worker ("1" outside a worker). */
export function poolId(): string {
  return process.env.VITEST_POOL_ID ?? "1";
}

/** The database name of worker `id`, beside the template database of `templateUrl`. */
export function workerDatabase(templateUrl: string, id: string): string {
  return `${new URL(templateUrl).pathname.slice(1)}_w${id}`;
}

/** The URL of worker `id`'s database, on the server of `templateUrl`. */
export function workerDatabaseUrl(templateUrl: string, id: string): string {
  const url = new URL(templateUrl);
  url.pathname = `/${workerDatabase(templateUrl, id)}`;
  return url.toString();
}

/** The Temporal namespace of worker `id`. */
export function workerNamespace(id: string): string {
  return `borealis-test-w${id}`;
}

/** A Temporal namespace of its own (workflows and task queues no other file sees), kept a day. */
export async function registerNamespace(temporalAddress: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    type Request = Parameters<typeof connection.workflowService.registerNamespace>[0];
    // protobufjs accepts a plain number for this int64; its generated type admits only Long.
    const oneDay = { seconds: 24 * 3600 } as unknown as Request["workflowExecutionRetentionPeriod"];
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: oneDay });
  } finally {
    await connection.close();
  }
}
