// A recorder in front of stripe-mock: it keeps each request's method, path, idempotency key and
// form body, so a test can read what was sent; and, when a test sets one, it answers a Stripe
// error that stripe-mock cannot produce (an address Stripe cannot place, Stripe being down).
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
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const key = req.headers["idempotency-key"];
      requests.push({
        method: req.method ?? "",
        path: (req.url ?? "").split("?")[0],
        idempotencyKey: typeof key === "string" ? key : null,
        form: new URLSearchParams(req.method === "GET" ? (req.url ?? "").split("?")[1] : body.toString("utf8")),
      });
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
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
