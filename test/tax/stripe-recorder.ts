// A recorder in front of stripe-mock: it keeps each request's method, path, idempotency key and
// form body, so a test can read what was sent; and, when a test sets one, it answers a Stripe
// error that stripe-mock cannot produce (an address Stripe cannot place, Stripe being down); a
// test may also run its own step while a request waits (`beforeForward`: Stripe being slow).
import { createServer, request, type IncomingMessage } from "node:http";

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  form: URLSearchParams;
}

export interface StripeFailure {
  status: number;
  error: { type: string; code?: string; param?: string; message: string };
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startStripeRecorder(mockPort: number) {
  const requests: RecordedRequest[] = [];
  let failure: StripeFailure | null = null;
  let hook: { path: string; run: () => Promise<void> } | null = null;
  const server = createServer((req, res) => {
    void bodyOf(req).then(async (body) => {
      const key = req.headers["idempotency-key"];
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: (req.url ?? "").split("?")[0],
        idempotencyKey: typeof key === "string" ? key : null,
        form: new URLSearchParams(req.method === "GET" ? (req.url ?? "").split("?")[1] : body.toString("utf8")),
      };
      requests.push(recorded);
      if (hook && recorded.method === "POST" && recorded.path === hook.path) await hook.run();
      if (failure) {
        res.writeHead(failure.status, { "content-type": "application/json" }).end(JSON.stringify({ error: failure.error }));
        return;
      }
      const upstream = request({ host: "127.0.0.1", port: mockPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", (err) => res.writeHead(502).end(String(err)));
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    port,
    requests,
    /** Answers every request with this Stripe error until called with null. */
    failWith(next: StripeFailure | null) {
      failure = next;
    },
    /** Runs `run` on each POST to `path` before it is answered, until called with null. */
    beforeForward(path: string | null, run: () => Promise<void> = async () => {}) {
      hook = path === null ? null : { path, run };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
