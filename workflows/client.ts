// A Temporal client for code outside workflows (the API, the worker's own start-up, scripts):
// start workflows, signal them, query them.
import { Client, Connection } from "@temporalio/client";

/** Connects to the Temporal frontend at `address` (host:port). Close with `client.connection.close()`. */
export async function createTemporalClient(address: string, namespace = "default"): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace });
}
