// Starts stripe-mock (built by scripts/build-tools.sh into .cache/bin) on a free port for one test file.
// A missing binary fails the test file (never skips it): `make test` and `make tools` build it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { freePort } from "../../scripts/services.js";
import { sleep } from "../../server/kit/time.js";

export const STRIPE_MOCK_BIN = new URL("../../.cache/bin/stripe-mock", import.meta.url).pathname;

async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`stripe-mock did not listen on ${port}`);
}

export async function startStripeMock(): Promise<{ port: number; stop: () => void; process: ChildProcess }> {
  if (!existsSync(STRIPE_MOCK_BIN)) throw new Error(`stripe-mock is not built (${STRIPE_MOCK_BIN}): run \`make tools\``);
  const port = await freePort();
  const child = spawn(STRIPE_MOCK_BIN, ["-http-port", String(port)], { stdio: "ignore" });
  await waitForPort(port);
  return { port, process: child, stop: () => void child.kill() };
}

/**
 * stripe-mock answers every payment intent with its fixture's status, requires_payment_method, so
 * no charge through it is ever paid. This proxy in front of it stands in for the card network
 * approving the charge: everything goes to stripe-mock unchanged (its request validation included)
 * and, in the answers to creating or confirming a payment intent, only that one status becomes
 * "succeeded". `intents` counts the intents it approved.
 */
export async function startApprovingProxy(mockPort: number): Promise<{ port: number; intents: string[]; stop: () => Promise<void> }> {
  const intents: string[] = [];
  const server = createHttpServer((req, res) => {
    const upstream = httpRequest({ host: "127.0.0.1", port: mockPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        let body = Buffer.concat(chunks);
        if (req.method === "POST" && /^\/v1\/payment_intents(\/[^/]+\/confirm)?(\?|$)/.test(req.url ?? "") && up.statusCode === 200) {
          const intent = JSON.parse(body.toString("utf8")) as { id: string; status: string };
          if (intent.status === "requires_payment_method") {
            intent.status = "succeeded";
            intents.push(intent.id);
            body = Buffer.from(JSON.stringify(intent));
          }
        }
        const headers = { ...up.headers, "content-length": String(body.length) };
        delete headers["transfer-encoding"];
        res.writeHead(up.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    upstream.on("error", (err) => res.writeHead(502).end(String(err)));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { port, intents, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
