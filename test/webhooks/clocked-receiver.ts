// For the webhook tests on Temporal's time-skipping test server: a receiver on 127.0.0.1 that
// answers each event (by its body's type and `data.n`) as a function of the test server's time
// and records every request with that time, and events queued as the fan-out leaves them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Knex } from "knex";

export interface ClockedHit {
  webhookId: string;
  type: string;
  n: number;
  status: number;
  /** The test server's time of the request. */
  at: number;
}

export class ClockedReceiver {
  hits: ClockedHit[] = [];
  url = "";
  /** The answer to an event at the test server's time; 200 until a test says otherwise. */
  answer: (type: string, n: number, at: number) => number = () => 200;
  private server: Server;

  constructor(now: () => Promise<number>) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const at = await now();
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; data: { n: number } };
        const status = this.answer(body.type, body.data.n, at);
        this.hits.push({ webhookId: String(req.headers["webhook-id"]), type: body.type, n: body.data.n, status, at });
        res.writeHead(status).end(status === 200 ? "ok" : "refused");
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise<void>((r) => (this.server.listening ? this.server.close(() => r()) : r()));
  }
}

/**
 * Events of these types queued for the endpoint in this order, `data.n` = 0, 1, …, as the fan-out
 * leaves them (their outbox rows already published); their ids.
 */
export async function queueEvents(knex: Knex, organizationId: string, endpointId: string, types: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const type of types) {
    const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { n: ids.length } });
    const [row] = await knex("outbox").insert({ organization_id: organizationId, type, payload, published_at: new Date() }).returning("id");
    const [event] = await knex("webhook_events")
      .insert({ organization_id: organizationId, endpoint_id: endpointId, outbox_id: row.id, type, payload })
      .returning("id");
    ids.push(event.id);
  }
  return ids;
}
