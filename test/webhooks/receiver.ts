// A real HTTP receiver on 127.0.0.1 for the webhook tests: records every request (path,
// headers, body, arrival time), answers each path from a script of status codes (then 200), can
// hold a request unanswered, and verifies a delivery with standardwebhooks keyed as the official
// client's validateEvent keys it.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request's body had arrived. */
  at: number;
}

/** A receiver answering each path from a script of status codes (then 200). */
export class Receiver {
  received: Received[] = [];
  private scripts = new Map<string, number[]>();
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      if (this.held.delete(path)) {
        this.hanging.push(res);
        return;
      }
      const status = this.scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : `status ${status} ${"x".repeat(3000)}`);
    });
  });
  url = "";
  private held = new Set<string>();
  private hanging: ServerResponse[] = [];
  /** The next request to `path` gets no answer until release(). */
  hold(path: string) {
    this.held.add(path);
  }
  release() {
    for (const res of this.hanging.splice(0)) res.destroy();
  }
  /** On `port` when given (a port that refused connections until now), else any free one. */
  async start(port = 0) {
    await new Promise<void>((r) => this.server.listen(port, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop() {
    this.release();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
  script(path: string, statuses: number[]) {
    this.scripts.set(path, [...statuses]);
  }
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }
}

export function headersOf(r: Received): Record<string, string> {
  return {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  };
}

/** Verified with the standardwebhooks library directly, keyed as validateEvent keys it. */
export function verifyDirect(r: Received, secret: string): unknown {
  return new Webhook(Buffer.from(secret, "utf8").toString("base64")).verify(r.body, headersOf(r));
}
