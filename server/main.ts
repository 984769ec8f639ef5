// Starts the HTTP API on a port and stops it gracefully: no new connections, in-flight
// requests finish, idle keep-alive sockets close.
import { createServer, type Server } from "node:http";
import type { Knex } from "knex";
import { createApp } from "./app.js";
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
  const server = createServer({ maxHeaderSize: 256 * 1024 });
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
