// How the API reads a request: its query string as the contract's parameters, and its body
// (JSON in a UTF charset, a form; any other type is not read).
import { parse as parseForm } from "node:querystring";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { RequestValidationError } from "../kit/errors.js";

/**
 * The query string as the contract reads it: a repeated key is a list (`id=a&id=b`, however many),
 * `key[sub]=v` is a deepObject entry (`metadata[tier]=pro`), nested as deep as the brackets go
 * (`metadata[a][b]=v` is an object inside `metadata`, which the validator then refuses like a
 * body's). A key given both as a value and as an object (`customer_id=a&customer_id[x]=b`) keeps
 * both in an object, which no scalar or list parameter accepts. Keys that Object.prototype has
 * (its prototype's accessor, constructor, toString, …) would reach it: they are dropped.
 */
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
    if (path.some((k) => k in Object.prototype)) continue;
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

/** A JSON body in a UTF charset: an object or a list (body-parser's strict mode); `{}` when empty. */
function parseJson(req: FastifyRequest, text: string | Buffer, done: (err: Error | null, body?: unknown) => void): void {
  const charset = /;\s*charset=["']?([^;"'\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1];
  if (charset && !/^utf-/i.test(charset)) {
    return done(Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), { statusCode: 415 }));
  }
  const s = String(text);
  if (s.trim() === "") return done(null, {});
  try {
    if (!/^[\s]*[[{]/.test(s)) throw new SyntaxError(`Unexpected token '${s.trim()[0]}', expected an object or a list`);
    done(null, JSON.parse(s));
  } catch (err) {
    done(
      new RequestValidationError([
        { loc: ["body"], msg: `JSON decode error: ${err instanceof Error ? err.message : String(err)}`, type: "json_invalid" },
      ]),
    );
  }
}

/** The body parsers of every route: JSON, forms, and nothing for any other type. */
export function installBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, parseJson);
  app.addContentTypeParser(/^application\/[^;]+\+json/, { parseAs: "string" }, parseJson);
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, text, done) =>
    done(null, Object.assign({}, parseForm(String(text)))),
  );
  // Any other body is not read: the operation sees none (and says so if it needs one).
  app.addContentTypeParser("*", (_req, _payload, done) => done(null, undefined));
}
