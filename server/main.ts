// Starts the HTTP API on a port and stops it gracefully: no new connections, in-flight
// requests finish, idle keep-alive sockets close.
import { createServer, STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Knex } from "knex";
import { createApp, errorBody } from "./app.js";
import { connectionUrl } from "./kit/db.js";
import { OrganizationTokens } from "./kit/org-tokens.js";
import { authConfigFromEnv } from "./auth/config.js";
import { createAuth, type BorealisAuth } from "./auth/instance.js";
import { createTemporalClient } from "../workflows/client.js";
import { setInvoiceWorkflowStarter, temporalInvoiceStarter } from "./orders/invoice-workflow.js";
import { setWebhookWaker } from "./webhooks/waker.js";
import { temporalWebhookWaker } from "../workflows/activities/webhooks.js";
import { BOREALIS_TASK_QUEUE } from "../workflows/shared/task-queues.js";
import { logger } from "./kit/logger.js";
import type { UiApp } from "./kit/ui-apps.js";
import { setBenefitGrantStarter, temporalBenefitGrantStarter } from "./benefit-grants/starter.js";
import { setSubscriptionPoker, temporalSubscriptionPoker } from "./subscriptions/workflow-port.js";

export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * What Node answers by itself to a request it could not read (timed out, headers too large,
 * malformed), with the contract's error body instead of an empty one; then the socket is freed.
 * Nothing is written when a response of the app is already on its way.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const status = err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const body = JSON.stringify(
      errorBody(status, status === 408 ? "The request did not arrive in time." : status === 431 ? "The request headers are too large." : "The request could not be read."),
    );
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    socket.end(head + body, () => socket.destroy());
  } else socket.destroy();
}

export interface ApiHandle {
  url: string;
  server: Server;
  /** The better-auth instance serving /api/auth. */
  auth: BorealisAuth;
  /** This process's organization token verifier. */
  tokens: OrganizationTokens;
  close(): Promise<void>;
}

export async function startApi(opts: {
  knex: Knex;
  port: number;
  host?: string;
  temporalAddress?: string;
  validateResponses?: boolean;
  /** How long a request may take to arrive whole (headers and body), and its headers alone. */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** The browser apps to serve (server/ui-apps.ts unless told). */
  uiApps?: readonly UiApp[];
}): Promise<ApiHandle> {
  // Workflows the API starts (invoices, webhook redelivery wake-ups, benefit grant jobs,
  // subscription lifecycles) go to the Temporal server this process was given, not to
  // TEMPORAL_ADDRESS's default (`make run` starts its own Temporal on a free port).
  if (opts.temporalAddress) {
    const client = createTemporalClient(opts.temporalAddress);
    client.catch((err) => logger.error({ err }, "Temporal client failed to connect")); // answered per request, not a crash
    setInvoiceWorkflowStarter(temporalInvoiceStarter(client));
    setWebhookWaker(temporalWebhookWaker(client, BOREALIS_TASK_QUEUE));
    setBenefitGrantStarter(temporalBenefitGrantStarter(client));
    setSubscriptionPoker(temporalSubscriptionPoker(client));
  }
  const tokens = new OrganizationTokens(opts.knex, connectionUrl(opts.knex));
  await tokens.start();
  // Long filter lists (`id=…&id=…`, metadata filters) make long URLs: allow 256 KiB of request
  // line and headers instead of Node's 16 KiB, so they get an answer from the API, not a 431.
  // A client that declares a body and sends it slowly, or never finishes its headers, gets a 408
  // and loses its socket after these: Node checks its connections every second for them.
  const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer({
    maxHeaderSize: 256 * 1024,
    requestTimeout,
    headersTimeout: Math.min(opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
    connectionsCheckingInterval: 1_000,
  });
  server.keepAliveTimeout = 5_000;
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "127.0.0.1", () => resolve());
  }).catch(async (err) => {
    await tokens.close();
    throw err;
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const url = `http://${opts.host && opts.host !== "0.0.0.0" ? opts.host : "127.0.0.1"}:${port}`;
  // The app is attached once the URL is known (better-auth's base URL when PUBLIC_API_URL is
  // unset), before the event loop can hand the server its first request.
  const authConfig = authConfigFromEnv(url);
  const auth = createAuth({ connection: connectionUrl(opts.knex), config: authConfig });
  const app = createApp({ knex: opts.knex, auth, authConfig, tokens, validateResponses: opts.validateResponses, uiApps: opts.uiApps });
  server.on("request", app);
  logger.info({ url }, "api listening");
  return {
    url,
    server,
    auth,
    tokens,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      await Promise.all([auth.close(), tokens.close()]);
    },
  };
}
