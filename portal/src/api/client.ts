// The generated typed client (generated/client), pointed at the server that served the page:
// one anonymous client for the public checkout calls, one per customer session for the portal.
import { createClient, createConfig, type Client } from "../../../generated/client/client/index.js";

export const publicClient: Client = createClient(createConfig({ baseUrl: window.location.origin }));

const sessions = new Map<string, Client>();

/** A client that sends the customer session token as its bearer. */
export function customerClient(token: string): Client {
  let client = sessions.get(token);
  if (!client) {
    client = createClient(createConfig({ baseUrl: window.location.origin, auth: () => token }));
    sessions.set(token, client);
  }
  return client;
}
