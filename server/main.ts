// Starts the HTTP API on a port and stops it gracefully: /readyz turns 503, no new connections,
// in-flight requests finish, idle keep-alive sockets close. server/cli/api.ts runs it as a process.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Knex } from "knex";
import { createApp } from "./app.js";
import { afterCommitSettled } from "./kit/after-commit.js";
import { errorBody } from "./kit/errors.js";
import { connectionUrl } from "./kit/db.js";
import { OrganizationTokens } from "./organization-access-tokens/verifier.js";
import { authConfigFromEnv } from "./auth/config.js";
import { createAuth, type BorealisAuth } from "./auth/instance.js";
import { useTemporalAddress } from "../workflows/client.js";
import { createHealth } from "./observability/health.js";
import { createRateLimits, type RateLimitSettings } from "./kit/rate-limits.js";
import { logger } from "./kit/logger.js";
import type { UiApp } from "./kit/ui-apps.js";
import type { ResponseChecks } from "./kit/contract.js";

export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;

/** The response being written on each socket, so that an unreadable request never writes into it. */
const answering = new WeakMap<Socket, ServerResponse>();

/** Node's refusals of a request it could not read, by error code (any other: 400). */
const UNREADABLE: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "The request did not arrive in time."],
  HPE_HEADER_OVERFLOW: [431, "The request headers are too large."],
};

/**
 * What Node answers by itself to a request it could not read (timed out, headers too large,
 * malformed), with the contract's error body instead of an empty one; then the socket is freed.
 * Nothing is written when a response of the app is already on its way.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (socket.writable && !answering.get(socket)?.headersSent) {
    const [status, detail] = UNREADABLE[err.code ?? ""] ?? [400, "The request could not be read."];
    const body = JSON.stringify(errorBody(status, detail));
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
  /**
   * Drains: /readyz answers 503 at once (for delayMs still serving, for a load balancer to see it),
   * then no new connections, idle sockets close, in-flight requests finish (up to graceMs), and it closes.
   */
  close(graceMs?: number, delayMs?: number): Promise<void>;
}

export async function startApi(opts: {
  knex: Knex;
  port: number;
  host?: string;
  temporalAddress?: string;
  validateResponses?: boolean;
  /** The answers' checks to use (tests share one set per process); made from the contract when absent. */
  responseChecks?: ResponseChecks;
  /** How long a request may take to arrive whole (headers and body), and its headers alone. */
  requestTimeoutMs?: number;
  /** Rate limit policies (the environment's unless given), and a namespace for their counters. */
  rateLimits?: RateLimitSettings;
  rateLimitNamespace?: string;
  headersTimeoutMs?: number;
  /** The browser apps to serve (server/ui-apps.ts unless told). */
  uiApps?: readonly UiApp[];
}): Promise<ApiHandle> {
  // The workflows the API starts go to the Temporal it was given (`make run` starts one on a free
  // port); the client connects on first use and again after a failure: Temporal may come later.
  if (opts.temporalAddress) useTemporalAddress(opts.temporalAddress);
  const health = createHealth(opts.knex);
  const rateLimits = createRateLimits(opts.knex, opts.rateLimits, opts.rateLimitNamespace);
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
  // The app is made once the URL is known (better-auth's base URL when PUBLIC_API_URL is unset).
  const authConfig = authConfigFromEnv(url);
  const auth = createAuth({ connection: connectionUrl(opts.knex), config: authConfig });
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const app = createApp({
    knex: opts.knex,
    auth,
    authConfig,
    tokens,
    validateResponses: opts.validateResponses,
    responseChecks: opts.responseChecks,
    uiApps: opts.uiApps,
    health,
    rateLimits,
    serverFactory: (handler) => {
      handle = handler;
      return server;
    },
    clientErrorHandler: answerClientError,
  });
  // Until the app is ready (its routes compiled), a request waits for it.
  const booted = app.ready();
  let ready = false;
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    answering.set(req.socket, res);
    if (ready) return handle?.(req, res);
    booted.then(
      () => handle?.(req, res),
      () => res.destroy(),
    );
  });
  try {
    await booted;
    ready = true;
  } catch (err) {
    server.close();
    await Promise.all([auth.close(), tokens.close()]);
    throw err;
  }
  logger.info({ url }, "api listening");
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    auth,
    tokens,
    // Closing twice (a drain, then a test's or a supervisor's cleanup) waits for the first close.
    close: (graceMs = 10_000, delayMs = 0) =>
      (closing ??= (async () => {
        health.drain();
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), graceMs).unref();
        });
        // The answered requests' workflow starts and wake-ups go out before the process may end.
        await afterCommitSettled(graceMs);
        await Promise.all([auth.close(), tokens.close(), app.close()]);
      })()),
  };
}
