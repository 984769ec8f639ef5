// What each method of a 1.x client (@polar-sh/sdk 1.0.1) requests, learnt by calling it with
// placeholder arguments while `fetch` only records (no server), and the contract's operation that
// serves that request, if one does. The 1.x services have their own names (`customers.getExternal`,
// `webhooks.createWebhookEndpoint`): this is the map from them to our operationIds.
import { vi } from "vitest";
import { operations } from "../../generated/operations.js";
import type { OperationId } from "../../generated/handlers.js";

export interface Sdk1Operation {
  /** `GET /v1/customers/{…}`: the request, path parameters as {…}. */
  request: string;
  /** The contract's operation for it, when we serve it. */
  operationId: OperationId | undefined;
  /** The operation our router takes such a request to (a template it fits, `/v1/orders/export` to `/v1/orders/{id}`), if any. */
  routedTo: OperationId | undefined;
  /** How many path parameters it takes (its first arguments). */
  pathParameters: number;
}

/** A path template with its parameters unnamed: `/v1/customers/{}/state`. */
const unnamed = (template: string) => template.replace(/\{[^}]*\}/g, "{}");
const isOperationId = (id: string): id is OperationId => Object.hasOwn(operations, id);
const byRequest = new Map<string, OperationId>();
for (const id of Object.keys(operations).filter(isOperationId))
  byRequest.set(`${operations[id].method.toUpperCase()} ${unnamed(operations[id].path)}`, id);

/** The contract's operation with this method and path template (`{…}` or `{name}` for a parameter), if there is one. */
export function operationFor(method: string, template: string): OperationId | undefined {
  return byRequest.get(`${method} ${unnamed(template)}`);
}

const fitting = Object.keys(operations)
  .filter(isOperationId)
  .map((id) => ({
    id,
    method: operations[id].method.toUpperCase(),
    re: new RegExp(`^${operations[id].path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

/** The operation a request with this method and concrete path is routed to, if any. */
function routeOf(method: string, path: string): OperationId | undefined {
  return operationFor(method, path) ?? fitting.find((t) => t.method === method && t.re.test(path))?.id;
}

/** Every method of `client` (a createPolar result) with a request of its own, by path (`products.get`). */
export async function sdk1Operations(client: object): Promise<Map<string, Sdk1Operation>> {
  const requests: { method: string; path: string }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    requests.push({ method: String(init.method), path: new URL(url).pathname });
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  });
  const out = new Map<string, Sdk1Operation>();
  const walk = async (node: object, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === "function") {
        if (key.startsWith("iter")) continue;
        const before = requests.length;
        // Positional path parameters first; a body or query given a placeholder string is sent as such.
        await Promise.resolve(value("P0", "P1", "P2")).catch(() => undefined);
        const last = requests[before];
        if (!last) throw new Error(`${path} made no request`);
        const concrete = last.path.replace(/\/P\d(?=\/|$)/g, "/{…}");
        out.set(path, {
          request: `${last.method} ${concrete}`,
          operationId: operationFor(last.method, concrete),
          routedTo: routeOf(last.method, last.path),
          pathParameters: (concrete.match(/\{…\}/g) ?? []).length,
        });
      } else if (value && typeof value === "object") await walk(value, path);
    }
  };
  try {
    await walk(client, "");
  } finally {
    vi.unstubAllGlobals();
  }
  return out;
}
