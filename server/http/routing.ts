// Routing: the query string as the contract reads it, openapi-backend's operation matching and
// request parsing with everything fixed per contract built once (the library's own rules kept;
// test/http/openapi-backend.test.ts pins them), the Allow list of a 405, and the two Express
// helpers that keep the middleware chain one layer deep.
import type { RequestHandler } from "express";
import type { Context, OpenAPIBackend, Operation, ParsedRequest, Request as OpenApiRequest } from "openapi-backend";
import type { ErrorObject } from "ajv";

/**
 * The query string as the contract reads it: a repeated key is a list (`id=a&id=b`, however many),
 * `key[sub]=v` is a deepObject entry (`metadata[tier]=pro`), nested as deep as the brackets go
 * (`metadata[a][b]=v` is an object inside `metadata`, which the validator then refuses like a
 * body's). A key given both as a value and as an object (`customer_id=a&customer_id[x]=b`) keeps
 * both in an object, which no scalar or list parameter accepts. Keys that would reach
 * Object.prototype are dropped.
 */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const QUERY_KEY = /^([^[\]]+)((?:\[[^\]]*\])*)$/;
export function parseQuery(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (target: Record<string, unknown>, key: string, value: string) => {
    const cur = Object.hasOwn(target, key) ? target[key] : undefined;
    if (cur && typeof cur === "object" && !Array.isArray(cur)) add(cur as Record<string, unknown>, "", value);
    else target[key] = cur === undefined ? value : Array.isArray(cur) ? [...cur, value] : [cur, value];
  };
  for (const [key, value] of new URLSearchParams(raw)) {
    const m = QUERY_KEY.exec(key);
    const path = m ? [m[1], ...Array.from(m[2].matchAll(/\[([^\]]*)\]/g), (x) => x[1])] : [key];
    if (path.some((k) => UNSAFE_KEYS.has(k))) continue;
    let target = out;
    for (const k of path.slice(0, -1)) {
      const cur = Object.hasOwn(target, k) ? target[k] : undefined;
      if (cur && typeof cur === "object" && !Array.isArray(cur)) target = cur as Record<string, unknown>;
      else target = target[k] = cur === undefined ? {} : { "": cur };
    }
    add(target, path[path.length - 1], value);
  }
  return out;
}

/**
 * openapi-backend rebuilds its whole operation list, and a RegExp per path template, on every
 * request (router.getOperations / matchOperation). The contract is fixed once loaded, so build the
 * list and the matchers once; matching keeps the library's rules (exact path first, then the most
 * specific template, 404 / 405 errors as it throws them).
 */
export function installFastRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  router.getOperation = (operationId: string) => byId.get(operationId);
  // The templates by their number of segments (a template only ever matches paths with as many):
  // a request tests the few of its length, not all of them.
  const templates = new Map<number, { op: (typeof operations)[number]; re: RegExp; specificity: number }[]>();
  const segments = (path: string) => path.split("/").length;
  for (const op of operations.filter((op) => op.path.includes("{"))) {
    const list = templates.get(segments(op.path)) ?? [];
    list.push({ op, re: new RegExp(`^${op.path.replace(/\{.*?\}/g, "[^/]+")}$`), specificity: op.path.replace(/\{.*?\}/g, "").length });
    templates.set(segments(op.path), list);
  }
  for (const list of templates.values()) list.sort((a, b) => b.specificity - a.specificity);
  const exact = new Map<string, (typeof operations)[number][]>();
  for (const op of operations) exact.set(op.path, [...(exact.get(op.path) ?? []), op]);
  router.matchOperation = ((req: { path: string; method: string }, strict?: boolean) => {
    const path = (req.path.trim().startsWith("/") ? req.path.trim() : `/${req.path.trim()}`).split("?")[0];
    const method = req.method.trim().toLowerCase();
    const hit = exact.get(path)?.find((op) => op.method === method);
    if (hit) return hit;
    const candidates = (templates.get(segments(path)) ?? []).filter((t) => t.re.test(path));
    const match = candidates.find((t) => t.op.method === method)?.op;
    if (match) return match;
    if (!strict) return undefined;
    if (candidates.length || exact.has(path)) throw new Error("405-methodNotAllowed: this method is not registered for the route");
    throw new Error("404-notFound: no route matches request");
  }) as typeof router.matchOperation;
}

/** A copy of a parsed query (strings, lists, one level of objects): the validator coerces its copy in place. */
function cloneQuery(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneQuery);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = cloneQuery((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * openapi-backend parses each request four times (before routing, after, for validation, after
 * coercion), each time deep-cloning the query with lodash and compiling the operation's path
 * template anew. The same parse, with the templates compiled once, for the requests this app
 * hands it (a parsed query object, a parsed or absent body); anything else (cookies, a raw body)
 * goes the library's own way.
 */
export function installFastParsing(api: OpenAPIBackend): void {
  const router = api.router;
  const original = router.parseRequest.bind(router);
  const templates = new Map<string, { re: RegExp; names: string[] }>();
  const pathParams = (template: string, path: string): Record<string, string> => {
    let t = templates.get(template);
    if (!t) {
      // As bath-es5 (the library's matcher) builds it: each {name} matches one segment, decoded.
      t = {
        re: new RegExp("^" + template.replace(/\{[A-Za-z0-9_-]+\}/g, "([^\\/]*)") + "$"),
        names: (template.match(/\{[A-Za-z0-9_-]+\}/g) ?? []).map((x) => x.slice(1, -1)),
      };
      templates.set(template, t);
    }
    const m = t.re.exec(path);
    const out: Record<string, string> = {};
    if (m) t.names.forEach((name, i) => (out[name] = decodeURIComponent(m[i + 1])));
    return out;
  };
  router.parseRequest = ((req: Parameters<typeof original>[0], operation?: Parameters<typeof original>[1]) => {
    const rawHeaders = (req.headers ?? {}) as Record<string, string | string[]>;
    if (rawHeaders.cookie !== undefined || typeof req.query !== "object" || (req.body && typeof req.body !== "object")) {
      return original(req, operation);
    }
    const headers: Record<string, string | string[]> = {};
    for (const key of Object.keys(rawHeaders)) headers[key.toLowerCase()] = rawHeaders[key];
    const query = cloneQuery(req.query) as Record<string, unknown>;
    // router.normalizeRequest's path and method (the library's rules), without its copy of the request.
    const trimmed = req.path?.trim() || "";
    const path = (trimmed.startsWith("/") ? trimmed : `/${trimmed}`).split("?")[0];
    let params: Record<string, string> = {};
    if (operation) {
      params = pathParams(operation.path, router.normalizePath(path));
      // The library's handling of query parameters with a style of their own, unchanged.
      for (const name in query) {
        if (!query[name]) continue;
        const parameter = operation.parameters?.find((p) => !("$ref" in p) && p?.in === "query" && p?.name === name) as
          { content?: Record<string, unknown>; explode?: boolean; style?: string } | undefined;
        if (!parameter) continue;
        if (parameter.content?.["application/json"]) query[name] = JSON.parse(query[name] as string);
        else if (parameter.explode === false) {
          const value = (Array.isArray(query[name]) ? (query[name] as string[])[0] : query[name]) as string;
          let decoded = value.replace(/%2C/g, ",");
          if (parameter.style === "spaceDelimited") decoded = decoded.replace(/ /g, ",").replace(/%20/g, ",");
          if (parameter.style === "pipeDelimited") decoded = decoded.replace(/\|/g, ",").replace(/%7C/g, ",");
          query[name] = decoded.split(",");
        }
      }
    }
    // A literal, not `{ ...req, … }`: V8 11 (Node 20) makes an object spread followed by more
    // properties build a new hidden class every time, several microseconds each (docs/BENCHMARKS.md).
    return { method: req.method.trim().toLowerCase(), path, body: req.body, params, headers, query, cookies: {}, requestBody: req.body };
  }) as typeof router.parseRequest;
}

/** A router consulted only for paths under `prefix` (the others skip its layers); case-insensitive like Express routing. */
export function under(prefix: string, router: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path.toLowerCase().startsWith(prefix) ? router(req, res, next) : next());
}

/** Runs the steps one after the other as one middleware; an error skips the rest. */
export function sequence(steps: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      // "route" / "router" (a sub-router done with the request) go on like a plain next().
      if (err && err !== "route" && err !== "router") return next(err);
      const handler = steps[i++];
      if (!handler) return next();
      void handler(req, res, step);
    };
    step();
  };
}
/**
 * The methods of the path the URL names: a concrete path (`/v1/license-keys/activate`) over the
 * templates it also fits (`/v1/license-keys/{id}`), as the contract reads it.
 */
export function allowedMethods(api: OpenAPIBackend, path: string): string[] {
  const fitting = api.router.getOperations().filter((op) => new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  const concrete = fitting.filter((op) => op.path === path);
  return [...new Set((concrete.length ? concrete : fitting).map((op) => op.method.toUpperCase()))];
}

/** What `dispatch` answers a request the contract has no operation for. */
export interface RouteMisses<A extends unknown[]> {
  notFound(...args: A): unknown;
  methodNotAllowed(...args: A): unknown;
}

/**
 * openapi-backend's request validation (OpenAPIRequestValidator.validateRequest) over a request
 * already parsed for this operation, instead of parsing it once more: singular query values made
 * lists where the parameter is an array, then every validator of the operation over
 * {path, query, header, cookie, requestBody}, which coerces `parsed`'s query and path values in
 * place. Same answer as the library's (test/http/openapi-backend.test.ts).
 */
function validateParsed(
  api: OpenAPIBackend,
  req: OpenApiRequest,
  parsed: ParsedRequest,
  operation: Operation,
): Context["validation"] & { coerced: OpenApiRequest } {
  const coerced: OpenApiRequest = { ...req };
  const errors: ErrorObject[] = [];
  const { params, query, headers, cookies, requestBody } = parsed;
  for (const name of Object.keys(query)) {
    if (typeof query[name] !== "string") continue;
    const parameter = operation.parameters?.find((p) => !("$ref" in p) && p.name === name && p.in === "query");
    const schema = parameter && !("$ref" in parameter) ? parameter.schema : undefined;
    if (schema && !("$ref" in schema) && schema.type === "array") query[name] = [query[name]];
  }
  const parameters: Record<string, unknown> = { path: params, query, header: headers, cookie: cookies };
  // The library drops only the parts that are null or undefined: here none ever is.
  if (typeof requestBody === "object" || headers["content-type"] === "application/json") parameters.requestBody = requestBody;
  if (typeof req.body !== "object" && req.body !== undefined) {
    // A raw body of an operation that reads JSON only: it must at least parse (the library's own check).
    const formats = Object.keys(operation.requestBody && !("$ref" in operation.requestBody) ? operation.requestBody.content : {});
    if (formats.length === 1 && formats[0] === "application/json") {
      try {
        JSON.parse(`${req.body}`);
      } catch (err) {
        if (err instanceof Error)
          errors.push({ keyword: "parse", instancePath: "", schemaPath: "#/requestBody", params: [], message: err.message });
      }
    }
  }
  for (const validate of api.validator.getRequestValidatorsForOperation(operation.operationId ?? "") ?? []) {
    validate(parameters);
    if (validate.errors) errors.push(...validate.errors);
    else if (api.validator.coerceTypes) {
      coerced.query = parameters.query as OpenApiRequest["query"];
      coerced.params = parameters.path as OpenApiRequest["params"];
    }
  }
  return errors.length ? { valid: false, errors, coerced } : { valid: true, errors: null, coerced };
}

/**
 * openapi-backend's handleRequest as this app configures it (validation and coercion on, no
 * security handlers, no pre-routing or post-response handler), with the request routed once
 * (not at all when the caller has matched it already: `matched`) and parsed twice instead of
 * routed twice and parsed five times; the registered handlers (postRoutingHandler,
 * validationFail, preOperationHandler, one per operation) run in the library's order with the
 * context it builds. test/http/openapi-backend.test.ts holds it to the library's answers.
 */
export async function dispatch<A extends unknown[]>(
  api: OpenAPIBackend,
  req: OpenApiRequest,
  misses: RouteMisses<A>,
  matched: Operation | undefined,
  ...args: A
): Promise<unknown> {
  let operation: Operation;
  if (matched) operation = matched;
  else {
    try {
      operation = api.router.matchOperation(req, true);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("405")) return misses.methodNotAllowed(...args);
      return misses.notFound(...args);
    }
  }
  const handlers = api.handlers;
  const parsed = api.router.parseRequest(req, operation);
  const context: Context = {
    api,
    operation,
    request: parsed,
    validation: { valid: true, errors: null },
    security: { authorized: false },
    response: undefined,
  };
  await handlers.postRoutingHandler?.(context, ...args);
  // The first parse is validated (and coerced) itself: nothing reads it after postRoutingHandler.
  const validation = validateParsed(api, req, parsed, operation);
  context.validation = validation;
  if (validation.errors) {
    const fail = handlers.validationFail;
    if (fail) return fail(context, ...args);
  }
  context.request = api.router.parseRequest(validation.coerced, operation);
  await handlers.preOperationHandler?.(context, ...args);
  const handler = handlers[operation.operationId ?? ""] ?? handlers.notImplemented;
  if (!handler) throw new Error(`501-notImplemented: ${operation.operationId} no handler registered`);
  return handler(context, ...args);
}
