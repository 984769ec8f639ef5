// One server of `make bench-pipeline` (bench/pipeline.ts), chosen by BENCH_PIPELINE: express (one
// router of all contract operations), express-prefixed (a router per "/v1/<name>"), fastify, or
// node-pg (the baseline: node:http, the same statements, JSON.stringify). products:get and
// meters:create do the same work in each; the others answer 501. No auth, rate limits or
// idempotency. Prints its URL as JSON on stdout.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import express from "express";
import Fastify from "fastify";
import fastJsonStringify from "fast-json-stringify";
import pg from "pg";
import { operations } from "../generated/operations.js";
import { contractAjv } from "../generated/validators.js";
import type { MeterRow } from "../server/meters/models.js";
import { toMeter } from "../server/meters/models.js";
import type { ProductRelations, ProductRow } from "../server/products/repository.js";
import { READ_ONE_SQL } from "../server/products/repository.js";
import { toProduct } from "../server/products/models.js";

const organizationId = process.env.BENCH_ORGANIZATION_ID!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 10 });

const INSERT_METER_SQL = `insert into meters (organization_id, name, unit, custom_label, custom_multiplier, filter, aggregation, metadata)
  values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`;

/** The two measured routes, by operation id; their paths are the contract's. */
const READ = "products:get";
const WRITE = "meters:create";

interface ReadColumns {
  rel_prices: ProductRelations["prices"];
  rel_benefits: ProductRelations["benefits"];
  rel_medias: ProductRelations["medias"];
  rel_custom_fields: ProductRelations["customFields"];
  rel_deletable: boolean;
}

interface MeterBody {
  name: string;
  unit?: MeterRow["unit"];
  custom_label?: string | null;
  custom_multiplier?: number | null;
  filter: MeterRow["filter"];
  aggregation: MeterRow["aggregation"];
  metadata?: MeterRow["metadata"];
}

async function readProduct(id: string): Promise<(ProductRow & ReadColumns) | undefined> {
  const { rows } = await pool.query<ProductRow & ReadColumns>({ name: "read_one", text: READ_ONE_SQL, values: [organizationId, id] });
  return rows[0];
}

async function insertMeter(body: MeterBody): Promise<MeterRow> {
  const values = [
    organizationId,
    body.name,
    body.unit ?? "scalar",
    body.custom_label ?? null,
    body.custom_multiplier ?? null,
    JSON.stringify(body.filter),
    JSON.stringify(body.aggregation),
    JSON.stringify(body.metadata ?? {}),
  ];
  const { rows } = await pool.query<MeterRow>({ name: "insert_meter", text: INSERT_METER_SQL, values });
  return rows[0];
}

/** The row split into the Product answer, as the products repository and service do. */
function productOf(row: ProductRow & ReadColumns) {
  return toProduct(row, {
    prices: row.rel_prices,
    benefits: row.rel_benefits,
    medias: row.rel_medias,
    customFields: row.rel_custom_fields,
    deletable: row.rel_deletable,
  });
}

const components: Record<string, unknown> = JSON.parse(
  readFileSync(new URL("../generated/openapi.json", import.meta.url), "utf8"),
).components;
/** The contract's component schemas, as Ajv (contractAjv) and fast-json-stringify resolve "borealis#/components/schemas/<Name>". */
const BOREALIS = { $id: "borealis", type: "object" as const, components };
const schema = (name: string) => ({ $ref: `borealis#/components/schemas/${name}` });
const ID_PARAMS = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
const NOT_FOUND = { error: "ResourceNotFound", detail: "Not found" };
const NOT_IMPLEMENTED = { error: "NotImplemented", detail: "Not measured by this benchmark" };

/** Path-sorted so that a static segment is tried before a parameter in its place ("/x/export" before "/x/:id"). */
function routes() {
  return Object.entries(operations).sort(([, a], [, b]) =>
    a.expressPath.replaceAll(":", "~") < b.expressPath.replaceAll(":", "~") ? -1 : 1,
  );
}

/**
 * `byPrefix`: one router per "/v1/<name>" mounted at that prefix, so a request is matched against
 * its own group's routes only; otherwise one flat router, every request tried route by route.
 */
function serveExpress(byPrefix: boolean): Promise<string> {
  const ajv = contractAjv();
  const validId = ajv.compile<{ id: string }>(ID_PARAMS);
  const validMeter = ajv.compile<MeterBody>(schema("MeterCreate"));
  const external = { schema: { borealis: BOREALIS } };
  const productJson = fastJsonStringify(schema("Product"), external);
  const meterJson = fastJsonStringify(schema("Meter"), external);
  const invalid = (res: express.Response, loc: string) =>
    void res.status(422).json({ detail: [{ loc: [loc], msg: "Invalid", type: "value_error" }] });

  const flat = express.Router();
  const prefixed = new Map<string, express.Router>();
  for (const [id, op] of routes()) {
    const prefix = byPrefix ? op.expressPath.split("/").slice(0, 3).join("/") : "";
    const path = op.expressPath.slice(prefix.length) || "/";
    let router = flat;
    if (byPrefix) {
      router = prefixed.get(prefix) ?? express.Router();
      prefixed.set(prefix, router);
    }
    if (id === READ) {
      router.get(path, async (req, res) => {
        const params: unknown = req.params;
        if (!validId(params)) return invalid(res, "path");
        const row = await readProduct(params.id);
        if (!row) return void res.status(404).json(NOT_FOUND);
        res.type("application/json").send(productJson(productOf(row)));
      });
    } else if (id === WRITE) {
      router.post(path, async (req, res) => {
        const body: unknown = req.body;
        if (!validMeter(body)) return invalid(res, "body");
        res
          .status(201)
          .type("application/json")
          .send(meterJson(toMeter(await insertMeter(body))));
      });
    } else {
      router[op.method](path, (_req, res) => void res.status(501).json(NOT_IMPLEMENTED));
    }
  }
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.set("etag", false);
  app.use(express.json({ limit: "1mb" }));
  if (byPrefix) for (const [prefix, router] of prefixed) app.use(prefix, router);
  else app.use(flat);
  return urlOf(app.listen(0, "127.0.0.1"));
}

async function serveFastify(): Promise<string> {
  const app = Fastify({ logger: false });
  app.addSchema(BOREALIS);
  const ajv = contractAjv();
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));
  for (const [id, op] of routes()) {
    const method = op.method.toUpperCase();
    if (id === READ) {
      app.route<{ Params: { id: string } }>({
        method,
        url: op.expressPath,
        schema: { params: ID_PARAMS, response: { 200: schema("Product") } },
        handler: async (req, reply) => {
          const row = await readProduct(req.params.id);
          return row ? productOf(row) : reply.code(404).send(NOT_FOUND);
        },
      });
    } else if (id === WRITE) {
      app.route<{ Body: MeterBody }>({
        method,
        url: op.expressPath,
        schema: { body: schema("MeterCreate"), response: { 201: schema("Meter") } },
        handler: async (req, reply) => reply.code(201).send(toMeter(await insertMeter(req.body))),
      });
    } else {
      app.route({ method, url: op.expressPath, handler: async (_req, reply) => reply.code(501).send(NOT_IMPLEMENTED) });
    }
  }
  await app.listen({ port: 0, host: "127.0.0.1" });
  return urlOf(app.server);
}

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req: IncomingMessage): Promise<MeterBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function serveNodePg(): Promise<string> {
  const productPath = operations[READ].path.replace("{id}", "");
  const meterPath = operations[WRITE].path;
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const work =
      req.method === "GET" && url.startsWith(productPath)
        ? readProduct(url.slice(productPath.length)).then((row) => (row ? send(res, 200, row) : send(res, 404, NOT_FOUND)))
        : req.method === "POST" && url === meterPath
          ? readJson(req).then(async (body) => send(res, 201, await insertMeter(body)))
          : Promise.resolve(send(res, 501, NOT_IMPLEMENTED));
    work.catch((err: Error) => send(res, 500, { error: "InternalError", detail: err.message }));
  });
  return urlOf(server.listen(0, "127.0.0.1"));
}

/** The base URL of a server once it listens. */
async function urlOf(server: Server): Promise<string> {
  if (!server.listening) await once(server, "listening");
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

const kind = process.env.BENCH_PIPELINE;
const serve =
  kind === "express"
    ? () => serveExpress(false)
    : kind === "express-prefixed"
      ? () => serveExpress(true)
      : kind === "fastify"
        ? serveFastify
        : kind === "node-pg"
          ? serveNodePg
          : undefined;
if (!serve) throw new Error(`BENCH_PIPELINE must be express, express-prefixed, fastify or node-pg, not ${kind}`);
console.log(JSON.stringify({ url: await serve() }));
process.on("SIGTERM", () => void pool.end().then(() => process.exit(0)));
