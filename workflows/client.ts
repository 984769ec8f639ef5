// A Temporal client for code outside workflows (the API, the worker's own start-up, scripts):
// start workflows, signal them, query them.
import { Client, Connection } from "@temporalio/client";

/** Connects to the Temporal frontend at `address` (host:port). Close with `client.connection.close()`. */
export async function createTemporalClient(address: string, namespace = "default"): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace });
}

let shared: Promise<Client> | null = null;

/** One client per process for TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE, connected on first use; a failed connection is tried again next time. */
function sharedTemporalClient(): Promise<Client> {
  if (!shared) {
    const client = createTemporalClient(process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233", process.env.TEMPORAL_NAMESPACE ?? "default");
    client.catch(() => {
      if (shared === client) shared = null;
    });
    shared = client;
  }
  return shared;
}

/**
 * A swappable way for the API to reach workflows (start invoices, wake webhook endpoints, start
 * grant jobs, poke subscriptions): built on first use over the process's shared client, rebuilt
 * after a failed connection, or replaced with `set` (another client, namespace or task queue).
 */
export function temporalPort<T>(build: (client: Promise<Client>) => T): { get(): T; set(port: T | null): void } {
  let current: T | null = null;
  return {
    get() {
      if (!current) {
        const client = sharedTemporalClient();
        const port = build(client);
        current = port;
        client.catch(() => {
          if (current === port) current = null;
        });
      }
      return current;
    },
    set(port) {
      current = port;
    },
  };
}
