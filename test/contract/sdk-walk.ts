// The SDK walk's runner: a table of steps (./sdk-walk-steps.ts) run through one official client's
// standalone functions (`@polar-sh/sdk/funcs/<name>.js`), each answer parsed by that client's zod
// schemas. Steps name 0.34.17's functions; another version's function is the one calling the same
// operation (method and path), whatever its name. A step that fails is recorded and the walk goes on.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { sleep } from "../../server/kit/time.js";

const require = createRequire(import.meta.url);

/** An official client package (npm alias) and its version. */
export interface WalkClient {
  pkg: string;
  version: string;
}

/** A client's standalone functions: name → the operation it calls, as `METHOD /path/{param}`. */
export function functionsOf(pkg: string): Map<string, string> {
  const dir = join(dirname(require.resolve(`${pkg}/package.json`)), "src", "funcs");
  const out = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    const path = /pathToFunc\(\s*"([^"]+)"/.exec(source)?.[1];
    const method = /\bmethod: "([A-Z]+)"/.exec(source)?.[1];
    if (path && method) out.set(file.slice(0, -3), `${method} ${path}`);
  }
  return out;
}

/** Values kept from earlier answers (ids, secrets, tokens), by name. */
export type Vars = Record<string, unknown>;

/** `kept`, guarded: a read of a name no step kept throws (the step that keeps it failed). */
function guarded(kept: Vars): Vars {
  return new Proxy<Vars>(kept, {
    get(target, key) {
      if (typeof key === "string" && key !== "then" && !(key in target))
        throw new Error(`"${key}" was not kept: the step that keeps it failed`);
      return Reflect.get(target, key);
    },
  });
}

/**
 * Who makes a call: the organization's token, nobody, the signed-in user's cookie, the OAuth2 app's
 * token, a team customer's portal session (`teamToken`: the portal's members calls take it as the client's token).
 */
export type Caller = "merchant" | "anon" | "user" | "authorize" | "oauth" | "team";

export interface Call {
  /** The 0.34.17 function; for an operation 0.34.17 has not, a newer client's (the clients without it skip the step). */
  fn: string;
  as?: Caller;
  /** Its arguments after the client (security first for the portal's, then the request). */
  args?: (v: Vars, lib: Lib) => unknown[];
  /** The first client version that calls it (a request shape older clients cannot send). */
  since?: string;
  /** The client's typed error this call must raise (an error case). */
  fails?: string;
  /** Values to keep from the answer: name → dotted path in it ("result.items.0.id"), or paths to try in turn (clients reading the answer in different shapes). */
  keep?: Record<string, string | string[]>;
  /** Called again (up to 30 s) until this path of the answer is set, or has this value (a worker's work). */
  until?: string | [path: string, value: unknown];
}

/** Harness work between calls (uploading a file's parts, consenting as a browser, folding usage). */
export interface Chore {
  chore: string;
  run: (v: Vars, lib: Lib) => Promise<void>;
}

export type Step = Call | Chore;

/** What a step's arguments may need from the client's package. */
export interface Lib {
  /** The package's RFCDate (a date-only query parameter). */
  date(iso: string): unknown;
}

export interface Outcome {
  fn: string;
  /** The function of this client that was called. */
  called: string;
  ok: boolean;
  detail?: string;
}

export interface WalkSetup {
  apiUrl: string;
  /** The organization's access token. */
  token: string;
  /** fetch as the signed-in user's browser (cookies, origin). */
  userFetch: typeof fetch;
  /** Query string the authorize call is sent with (the client sends none of its own). */
  authorizeQuery: string;
  vars: Vars;
}

type Result = { ok: boolean; value?: unknown; error?: unknown };
type SdkFunction = (client: unknown, ...args: unknown[]) => PromiseLike<Result>;
const isFunction = (f: unknown): f is SdkFunction => typeof f === "function";

/** The value at a dotted path ("result.items.0.id"), undefined when absent. */
export function at(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = Reflect.get(cur, key);
  }
  return cur;
}

/** A zod error's leaf issues as `path: message` (both zod 3's `unionErrors` and zod 4's `errors`), at most 12. */
function issuesOf(cause: unknown, prefix: unknown[] = []): string[] {
  const issues: unknown = at(cause, "issues");
  if (!Array.isArray(issues)) return [];
  const out = issues.flatMap((issue: unknown): string[] => {
    const path = prefix.concat(at(issue, "path") ?? []);
    const branches: unknown = at(issue, "errors") ?? at(issue, "unionErrors");
    if (Array.isArray(branches)) return branches.flatMap((b: unknown) => issuesOf(Array.isArray(b) ? { issues: b } : b, path));
    return [`${path.join(".")}: ${String(at(issue, "message"))}`];
  });
  return [...new Set(out)].slice(0, 12);
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const issues = issuesOf(err.cause);
  if (!issues.length) return `${err.name}: ${err.message}`;
  const raw = JSON.stringify(Reflect.get(err, "rawValue")) ?? "";
  return `${err.name}: ${err.message.split("\n")[0]}\n  ${issues.join("\n  ")}\n  in ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`;
}

/** Whether version `a` comes before `b` (dotted numbers). */
function olderThan(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The value at `path` of a call's answer: the client's parsed value, or the raw JSON of an answer
 * its schemas refused (snake_case keys; a page under `Result`), so that the walk goes on past a
 * refusal and reports every one at once. A page is under `result` where the client pages the
 * list, and is the answer itself where it does not (0.49.0's events.list).
 */
function answerAt(r: Result, path: string): unknown {
  const unpaged = path.replace(/^result\./, "");
  if (r.ok) return at(r.value, path) ?? at(r.value, unpaged);
  const raw: unknown = at(r.error, "rawValue");
  const rawPath = unpaged.split(".").map(snakeCase).join(".");
  return at(raw, `Result.${rawPath}`) ?? at(raw, rawPath);
}

export interface WalkRun {
  /** Every call's outcome, in order. */
  outcomes: Outcome[];
  /** The values the steps kept (the ids of what the walk made). */
  kept: Vars;
}

/** Runs `steps` through `client`'s functions. */
export async function walk(client: WalkClient, steps: Step[], setup: WalkSetup): Promise<WalkRun> {
  const { pkg } = client;
  const [{ PolarCore }, { HTTPClient }, { RFCDate }, { PolarError }] = await Promise.all([
    import(`${pkg}/core.js`),
    import(`${pkg}/lib/http.js`),
    import(`${pkg}/types/rfcdate.js`),
    import(`${pkg}/models/errors/polarerror.js`),
  ]);
  const serverURL = setup.apiUrl;
  const kept: Vars = Object.assign({}, setup.vars);
  const vars = guarded(kept);
  const lib: Lib = { date: (iso) => new RFCDate(iso) };
  const authorizeFetch: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    url.search = setup.authorizeQuery;
    return setup.userFetch(new Request(url, request));
  };
  const cores: Record<Caller, () => unknown> = {
    merchant: () => new PolarCore({ serverURL, accessToken: setup.token }),
    anon: () => new PolarCore({ serverURL }),
    user: () => new PolarCore({ serverURL, httpClient: new HTTPClient({ fetcher: setup.userFetch }) }),
    authorize: () => new PolarCore({ serverURL, httpClient: new HTTPClient({ fetcher: authorizeFetch }) }),
    oauth: () => new PolarCore({ serverURL, accessToken: vars.oauthAccessToken }),
    team: () => new PolarCore({ serverURL, accessToken: vars.teamToken }),
  };
  const own = functionsOf(pkg);
  const byOperation = new Map([...own].map(([fn, op]) => [op, fn]));
  const baseline = functionsOf("@polar-sh/sdk");

  const outcomes: Outcome[] = [];
  for (const step of steps) {
    if ("chore" in step) {
      try {
        await step.run(vars, lib);
      } catch (err) {
        outcomes.push({ fn: `chore: ${step.chore}`, called: step.chore, ok: false, detail: describeError(err) });
      }
      continue;
    }
    // A step for an operation 0.34.17 has not is this client's to call only if it has the function.
    if (!baseline.has(step.fn) && !own.has(step.fn)) continue;
    if (step.since && olderThan(client.version, step.since)) continue;
    const called = byOperation.get(baseline.get(step.fn) ?? "") ?? step.fn;
    const outcome: Outcome = { fn: step.fn, called, ok: false };
    outcomes.push(outcome);
    try {
      const mod: Record<string, unknown> = await import(`${pkg}/funcs/${called}.js`);
      const f = mod[called];
      if (!isFunction(f)) throw new Error(`${pkg} has no function ${called}`);
      const core = cores[step.as ?? "merchant"]();
      const args = step.args?.(vars, lib) ?? [];
      let r = await f(core, ...args);
      if (step.until !== undefined && !step.fails) {
        const [path, want] = typeof step.until === "string" ? [step.until, undefined] : step.until;
        const reached = () => (want === undefined ? answerAt(r, path) != null : answerAt(r, path) === want);
        const deadline = Date.now() + 30_000;
        while (!reached() && Date.now() < deadline) {
          await sleep(250);
          r = await f(core, ...args);
        }
        if (!reached()) throw new Error(`${path} is still ${JSON.stringify(answerAt(r, path))} after 30 s`);
      }
      if (step.fails) {
        if (r.ok) throw new Error(`succeeded, but ${step.fails} was expected`);
        if (!(r.error instanceof PolarError) || at(r.error, "name") !== step.fails)
          throw new Error(`expected ${step.fails}, got ${describeError(r.error)}`);
      }
      for (const [name, paths] of Object.entries(step.keep ?? {})) {
        const value = [paths]
          .flat()
          .map((path) => answerAt(r, path))
          .find((v) => v !== undefined);
        if (value === undefined && r.ok) throw new Error(`nothing at ${[paths].flat().join(" or ")} to keep as ${name}`);
        if (value !== undefined) vars[name] = value;
      }
      if (!r.ok && !step.fails) throw r.error;
      outcome.ok = true;
    } catch (err) {
      outcome.detail = describeError(err);
    }
  }
  return { outcomes, kept };
}
