// The contract's operations without Express's router in front of them.
//
// Every request used to walk Express's router and the whole middleware sequence of server/app.ts
// (auth routes, file routes, integrations, buyer-page headers, the UI apps) before reaching the
// operation, after Express had swapped the prototypes of its request and response (a
// setPrototypeOf per object per request, which V8 makes slow for everything that touches them
// afterwards). For a small read, that cost more CPU than the database read itself
// (docs/BENCHMARKS.md, "HTTP read path vs node+pg"). So:
// - The server's requests and responses are born as Express's (`expressBorn`: node:http builds
//   them from classes whose prototypes lead to the app's), so nothing is swapped per request.
// - A request on a /v1 path that none of the routes outside the contract claims, with a method
//   the contract has there, goes straight through the steps that apply to it: the same request
//   context, security headers, CORS, body parsers and operation functions as the full sequence,
//   on the same objects, so every helper sees what it saw before. Everything else, including any
//   404 or 405, goes through Express as it did.
import { IncomingMessage, ServerResponse } from "node:http";
import type { Express, Request, RequestHandler, Response } from "express";
import type { Operation } from "openapi-backend";

/** Where the lane leaves the operation it matched, for the operation step (`matchedOperation`). */
const MATCHED = Symbol("matched operation");

/** The operation the lane matched this request to (so that it is not looked up again), if it did. */
export function matchedOperation(res: Response): Operation | undefined {
  return (res.locals as { [MATCHED]?: Operation })[MATCHED];
}

/** node:http request and response classes whose objects carry an Express app's methods from birth. */
export interface ExpressBorn {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
  /** Leads the classes' prototypes to `app`'s request and response (once, before the first request). */
  adopt(app: Express): void;
}

export function expressBorn(): ExpressBorn {
  class BornRequest extends IncomingMessage {}
  class BornResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  return {
    IncomingMessage: BornRequest,
    ServerResponse: BornResponse,
    adopt(app) {
      Object.setPrototypeOf(BornRequest.prototype, app.request);
      Object.setPrototypeOf(BornResponse.prototype, app.response);
    },
  };
}

export interface LaneOptions {
  /** The full application, for every request the lane does not take. */
  app: Express;
  /** Path prefixes (lower case) that routes outside the contract serve: those requests go to `app`. */
  claimed: readonly string[];
  /** The contract's operation for this method (lower case) at this path, if it has one. */
  operationOf: (method: string, path: string) => Operation | undefined;
  /** The steps an operation's request goes through, in order (a subset of the app's sequence). */
  steps: RequestHandler[];
  /** Answers an error a step passed on (the app's error handler). */
  onError: (err: unknown, req: Request, res: Response) => void;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A request listener that serves the contract's operations itself and hands everything else to `app`. */
export function operationLane({ app, claimed, operationOf, steps, onError }: LaneOptions): RequestListener {
  const takes = (req: IncomingMessage): Operation | undefined => {
    const url = req.url;
    if (url === undefined || !url.startsWith("/v1/") || req.method === undefined) return undefined;
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const lower = path.toLowerCase();
    return claimed.some((prefix) => lower.startsWith(prefix)) ? undefined : operationOf(req.method.toLowerCase(), path);
  };
  const isRequest = (req: IncomingMessage): req is Request => Object.prototype.isPrototypeOf.call(app.request, req);
  const isResponse = (res: ServerResponse): res is Response => Object.prototype.isPrototypeOf.call(app.response, res);
  return (req, res) => {
    const operation = takes(req);
    if (!operation) return void app(req, res);
    // As Express's app.handle does it: the pair knows each other, and res.locals. The prototypes
    // are the app's already when the server was made with expressBorn; otherwise they are set here.
    if (!isRequest(req)) Object.setPrototypeOf(req, app.request);
    if (!isResponse(res)) Object.setPrototypeOf(res, app.response);
    if (!isRequest(req) || !isResponse(res)) return void app(req, res);
    const request = req;
    const response = res;
    request.res = response;
    response.req = request;
    request.originalUrl = request.url;
    response.locals = Object.create(null);
    (response.locals as { [MATCHED]?: Operation })[MATCHED] = operation;
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return onError(err, request, response);
      const handler = steps[i++];
      if (handler) return void handler(request, response, step);
      onError(new Error(`${request.method} ${request.url}: the operation gave no answer`), request, response);
    };
    step();
  };
}
