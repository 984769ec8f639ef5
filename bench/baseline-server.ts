// The node+pg baseline of `make bench`, in a child process of its own: a bare node:http server over
// a `pg` pool of the API's size, with no framework, auth, validation or logging. Each route runs
// what the API's route of the same name costs the database and JSON (the product read, the
// 100-item list, checkout create, confirm with its outbox rows), so the API's req/s over these is
// the database's share of a request. Prints its URL on stdout.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";
import { PRODUCT_COLUMNS, READ_ONE_SQL, relationColumns } from "../server/products/repository.js";

const organizationId = process.env.BENCH_ORGANIZATION_ID!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 10 });

const READ_LIST_SQL = `select ${PRODUCT_COLUMNS}, ${relationColumns("products.id")}, count(*) over () as total_count
  from products where products.organization_id = $1 order by products.created_at desc, products.id limit $2`;
const PRODUCT_PRICE_SQL = `select p.id, p.name, p.recurring_interval, pp.id as price_id, pp.price_currency, pp.price_amount
  from products p join product_prices pp on pp.product_id = p.id and not pp.is_archived
  where p.organization_id = $1 and p.id = $2 and not p.is_archived order by pp.position limit 1`;
const INSERT_CHECKOUT_SQL = `with inserted as (
    insert into checkouts (id, organization_id, client_secret, expires_at, currency, product_id, product_price_id, amount, total_amount)
    values ($1, $2, $3, now() + interval '1 hour', $4, $5, $6, $7, $7) returning *)
  , linked as (insert into checkout_products (checkout_id, product_id, "order") values ($1, $5, 0))
  select * from inserted`;
const OUTBOX_SQL = `insert into outbox (organization_id, type, payload) values ($1, $2, $3)`;
const LOCK_CHECKOUT_SQL = `select * from checkouts where client_secret = $1 and status = 'open' for update`;
// Found or created, as the API's confirm does: every bench confirm pays with the same email.
const INSERT_CUSTOMER_SQL = `insert into customers (organization_id, email, name) values ($1, $2, $3)
  on conflict (organization_id, lower(email)) where deleted_at is null do update set name = excluded.name returning *`;
// The order's invoice and receipt numbers, from the organization's counter row, as the API takes them.
const TAKE_NUMBERS_SQL = `insert into invoice_counters (organization_id, last_number, last_receipt_number) values ($1, 1, 1)
  on conflict (organization_id) do update set last_number = invoice_counters.last_number + 1,
    last_receipt_number = invoice_counters.last_receipt_number + 1
  returning last_number, last_receipt_number, (select upper(slug) from organizations where id = $1) as slug`;
const INSERT_ORDER_SQL = `insert into orders (organization_id, billing_reason, currency, customer_id, product_id, checkout_id, subtotal_amount, invoice_number)
  values ($1, 'purchase', $2, $3, $4, $5, $6, $7) returning *`;
const INSERT_ITEM_SQL = `insert into order_items (order_id, label, amount) values ($1, $2, $3)`;
const INSERT_PAYMENT_SQL = `insert into payments (organization_id, status, amount, currency, method, order_id, checkout_id)
  values ($1, 'succeeded', $2, $3, 'card', $4, $5)`;
const ORDER_PAID_SQL = `update orders set status = 'paid', receipt_number = $2 where id = $1 returning *`;
const CHECKOUT_DONE_SQL = `update checkouts set status = 'succeeded', customer_id = $2, customer_email = $3, customer_name = $4 where id = $1 returning *`;

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

async function inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const out = await fn(client);
    await client.query("commit");
    return out;
  } catch (err) {
    await client.query("rollback");
    throw err;
  } finally {
    client.release();
  }
}

const event = (type: string, data: unknown) => JSON.stringify({ type, timestamp: new Date().toISOString(), data });

async function route(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://baseline");
  const parts = url.pathname.split("/").filter(Boolean);
  if (req.method === "GET" && parts[0] === "products" && parts.length === 2) {
    const { rows } = await pool.query({ name: "baseline_read_one", text: READ_ONE_SQL, values: [organizationId, parts[1]] });
    return rows.length ? send(res, 200, rows[0]) : send(res, 404, { error: "ResourceNotFound" });
  }
  if (req.method === "GET" && parts[0] === "products" && parts.length === 1) {
    const limit = Number(url.searchParams.get("limit") ?? 10);
    const { rows } = await pool.query({ name: "baseline_read_list", text: READ_LIST_SQL, values: [organizationId, limit] });
    const total = Number(rows[0]?.total_count ?? 0);
    return send(res, 200, { items: rows, pagination: { total_count: total, max_page: Math.ceil(total / limit) } });
  }
  if (req.method === "POST" && parts[0] === "checkouts" && parts.length === 1) {
    const body = (await readJson(req)) as { products: string[] };
    const checkout = await inTransaction(async (c) => {
      const product = (
        await c.query({ name: "baseline_product_price", text: PRODUCT_PRICE_SQL, values: [organizationId, body.products[0]] })
      ).rows[0];
      if (!product) return undefined;
      const secret = `polar_c_${randomBytes(24).toString("base64url")}`;
      const values = [randomUUID(), organizationId, secret, product.price_currency, product.id, product.price_id, product.price_amount];
      const row = (await c.query({ name: "baseline_insert_checkout", text: INSERT_CHECKOUT_SQL, values })).rows[0];
      await c.query({
        name: "baseline_outbox",
        text: OUTBOX_SQL,
        values: [organizationId, "checkout.created", event("checkout.created", row)],
      });
      return row;
    });
    return checkout
      ? send(res, 201, checkout)
      : send(res, 422, { detail: [{ loc: ["body", "products"], msg: "Product does not exist.", type: "value_error" }] });
  }
  if (req.method === "POST" && parts[0] === "checkouts" && parts.length === 3 && parts[2] === "confirm") {
    const body = (await readJson(req)) as { customer_email: string; customer_name: string };
    const done = await inTransaction(async (c) => {
      const checkout = (await c.query({ name: "baseline_lock_checkout", text: LOCK_CHECKOUT_SQL, values: [parts[1]] })).rows[0];
      if (!checkout) return undefined;
      const org = checkout.organization_id;
      const customer = (
        await c.query({
          name: "baseline_insert_customer",
          text: INSERT_CUSTOMER_SQL,
          values: [org, body.customer_email, body.customer_name],
        })
      ).rows[0];
      await c.query({ name: "baseline_outbox", text: OUTBOX_SQL, values: [org, "customer.created", event("customer.created", customer)] });
      const amount = checkout.total_amount;
      const numbers = (await c.query({ name: "baseline_take_numbers", text: TAKE_NUMBERS_SQL, values: [org] })).rows[0];
      const number = (n: number) => `${numbers.slug}-${String(n).padStart(4, "0")}`;
      const order = (
        await c.query({
          name: "baseline_insert_order",
          text: INSERT_ORDER_SQL,
          values: [org, checkout.currency, customer.id, checkout.product_id, checkout.id, amount, number(numbers.last_number)],
        })
      ).rows[0];
      await c.query({ name: "baseline_insert_item", text: INSERT_ITEM_SQL, values: [order.id, "Bench product", amount] });
      await c.query({ name: "baseline_outbox", text: OUTBOX_SQL, values: [org, "order.created", event("order.created", order)] });
      await c.query({
        name: "baseline_insert_payment",
        text: INSERT_PAYMENT_SQL,
        values: [org, amount, checkout.currency, order.id, checkout.id],
      });
      const paid = (
        await c.query({
          name: "baseline_order_paid",
          text: ORDER_PAID_SQL,
          values: [order.id, `RCPT-${number(numbers.last_receipt_number)}`],
        })
      ).rows[0];
      await c.query({ name: "baseline_outbox", text: OUTBOX_SQL, values: [org, "order.paid", event("order.paid", paid)] });
      const saved = (
        await c.query({
          name: "baseline_checkout_done",
          text: CHECKOUT_DONE_SQL,
          values: [checkout.id, customer.id, body.customer_email, body.customer_name],
        })
      ).rows[0];
      await c.query({ name: "baseline_outbox", text: OUTBOX_SQL, values: [org, "checkout.updated", event("checkout.updated", saved)] });
      return saved;
    });
    return done ? send(res, 200, done) : send(res, 404, { error: "ResourceNotFound" });
  }
  send(res, 404, { error: "ResourceNotFound" });
}

const server = createServer((req, res) => {
  route(req, res).catch((err: Error) => send(res, 500, { error: "InternalError", detail: err.message }));
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
