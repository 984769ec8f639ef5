// Order invoices end to end: the 202 (with a JSON body) starts the invoice workflow on a real
// Temporal server, whose activities number the invoice and store a real PDF; the GET hands out a
// signed URL that downloads it. Numbering stays gapless and unique under 20 concurrent
// generations (and concurrent requests for one order), and the 409 / 422 cases answer typed errors.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { InvoiceAlreadyExists } from "@polar-sh/sdk/models/errors/invoicealreadyexists.js";
import { MissingInvoiceBillingDetails } from "@polar-sh/sdk/models/errors/missinginvoicebillingdetails.js";
import { NotPaidOrder } from "@polar-sh/sdk/models/errors/notpaidorder.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { LocalStorage, setStorage } from "../../server/files/storage.js";
import { storeInvoice } from "../../server/orders/invoice.js";
import { orderDependents } from "../../server/subscriptions/repository.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { createInvoiceActivities } from "../../workflows/activities/invoice.js";
import {
  activityDeps,
  createCustomer,
  createCustomerSessionToken,
  createOrder,
  createProductWithPrice,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
  useTestWorker,
} from "../harness/index.js";

const api = useTestApi();
const poll = { timeout: 30_000, interval: 100 };

describe("order invoices", () => {
  const temporal = useTestWorker("invoices-test", {
    activities: () => createInvoiceActivities(activityDeps(api.knex)),
    install: (client, taskQueue) => {
      setWorkflowsDoor({ startInvoice: temporalDoor(client, taskQueue).startInvoice });
      return () => setWorkflowsDoor(null);
    },
  });
  let filesDir: string;
  let polar: Polar;
  let token: string;
  let orgId: string;
  let slug: string;
  let customerId: string;
  let productId: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(path.join(os.tmpdir(), "invoices-"));
    setStorage(new LocalStorage(filesDir));
    process.env.PUBLIC_API_URL = api.url;

    const made = await orgWithToken(api.knex);
    const org = made.org;
    token = made.token;
    orgId = org.id;
    slug = org.slug;
    polar = api.client(token);
    customerId = (await createCustomer(api.knex, orgId)).id;
    productId = (await createProductWithPrice(api.knex, orgId)).product.id;
  }, 120_000);

  afterAll(async () => {
    setStorage(null);
    delete process.env.PUBLIC_API_URL;
    await rm(filesDir, { recursive: true, force: true });
  }, 60_000);

  const generated = async (id: string) => (await api.knex("orders").where({ id }).first()).is_invoice_generated as boolean;

  it("answers 202 with a JSON body, renders a PDF and serves it through a signed URL", async () => {
    const order = await createOrder(api.knex, orgId, { customerId, productId }, { tax_amount: 500, metadata: {} });
    const res = await fetch(`${api.url}/v1/orders/${order.id}/invoice`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toBeNull();
    await expect.poll(() => generated(order.id), poll).toBe(true);

    const run = await temporal.client.workflow.getHandle(`invoice:${order.id}`).result();
    expect(run.number).toBe(`${slug.toUpperCase()}-0001`);
    // The order shows the number printed on its invoice.
    const shown = await (await fetch(`${api.url}/v1/orders/${order.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(shown).toMatchObject({ invoice_number: run.number, is_invoice_generated: true });
    const { url } = await polar.orders.invoice({ id: order.id });
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = bytes.toString("latin1");
    expect(text).toContain(run.number);
    expect(text).toContain("Jane Buyer");
    expect(text).toContain("$25.00");
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    // The xref offsets point at the objects.
    const startxref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe("xref");
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(5);
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));

    expect((await polar.orders.get({ id: order.id })).isInvoiceGenerated).toBe(true);
    expect(await outboxTypes(api.knex, orgId)).toContain("order.updated");
    // A second generation conflicts.
    const err = await rejects(polar.orders.generateInvoice({ id: order.id }), InvoiceAlreadyExists);
    expect(err.error).toBe("InvoiceAlreadyExists");
  });

  it("lets a portal customer generate and fetch the invoice of their own order", async () => {
    const order = await createOrder(api.knex, orgId, { customerId, productId });
    const security = { customerSession: await createCustomerSessionToken(api.knex, customerId) };
    const portal = new Polar({ serverURL: api.url });
    expect(await portal.customerPortal.orders.generateInvoice(security, { id: order.id })).toBeNull();
    await expect.poll(() => generated(order.id), poll).toBe(true);
    const { url } = await portal.customerPortal.orders.invoice(security, { id: order.id });
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("%PDF");
    await rejects(portal.customerPortal.orders.generateInvoice(security, { id: order.id }), InvoiceAlreadyExists);
  });

  it("numbers 20 concurrent invoices of one organization 3..22 without gaps or duplicates", async () => {
    const orders = await Promise.all(Array.from({ length: 20 }, () => createOrder(api.knex, orgId, { customerId, productId })));
    // Each order is also requested three times at once: the requests join one workflow run.
    await Promise.all(orders.flatMap((o) => [0, 1, 2].map(() => polar.orders.generateInvoice({ id: o.id }).catch(() => null))));
    await expect
      .poll(
        async () =>
          Number(
            (
              await api
                .knex("orders")
                .whereIn(
                  "id",
                  orders.map((o) => o.id),
                )
                .where({ is_invoice_generated: true })
                .count({ n: "*" })
            )[0].n,
          ),
        poll,
      )
      .toBe(20);
    const numbers: string[] = await api
      .knex("orders")
      .where({ organization_id: orgId })
      .whereNotNull("invoice_number")
      .orderBy("invoice_number")
      .pluck("invoice_number");
    expect(numbers).toEqual(Array.from({ length: 22 }, (_, i) => `${slug.toUpperCase()}-${String(i + 1).padStart(4, "0")}`));
    const counter = await api.knex("invoice_counters").where({ organization_id: orgId }).first();
    expect(counter.last_number).toBe(22);
  });

  it("keeps its activity idempotent: a retried step writes once, under the number the order was made with", async () => {
    const order = await createOrder(api.knex, orgId, { customerId, productId });
    const s1 = await storeInvoice(api.knex, order.id, orderDependents);
    const s2 = await storeInvoice(api.knex, order.id, orderDependents);
    expect(s2).toEqual(s1);
    expect(s1.number).toBe(order.invoice_number);
    const counter = await api.knex("invoice_counters").where({ organization_id: orgId }).first();
    expect(order.invoice_number).toBe(`${slug.toUpperCase()}-${String(counter.last_number).padStart(4, "0")}`);
  });

  it("numbers each organization on its own", async () => {
    const other = await orgWithToken(api.knex);
    const c = await createCustomer(api.knex, other.org.id);
    const p = await createProductWithPrice(api.knex, other.org.id);
    const o = await createOrder(api.knex, other.org.id, { customerId: c.id, productId: p.product.id });
    await api.client(other.token).orders.generateInvoice({ id: o.id });
    await expect.poll(() => generated(o.id), poll).toBe(true);
    expect((await api.knex("orders").where({ id: o.id }).first()).invoice_number).toBe(`${other.org.slug.toUpperCase()}-0001`);
  });

  it("answers NotPaidOrder, MissingInvoiceBillingDetails, 404 before generation and for foreign orders", async () => {
    const pending = await createOrder(api.knex, orgId, { customerId, productId }, { status: "pending" });
    expect((await rejects(polar.orders.generateInvoice({ id: pending.id }), NotPaidOrder)).error).toBe("NotPaidOrder");
    const noName = await createOrder(api.knex, orgId, { customerId, productId }, { billing_name: null });
    await rejects(polar.orders.generateInvoice({ id: noName.id }), MissingInvoiceBillingDetails);
    const noAddress = await createOrder(api.knex, orgId, { customerId, productId }, { billing_address: null });
    await rejects(polar.orders.generateInvoice({ id: noAddress.id }), MissingInvoiceBillingDetails);
    await rejects(polar.orders.invoice({ id: noAddress.id }), ResourceNotFound);
    const other = await orgWithToken(api.knex);
    const c = await createCustomer(api.knex, other.org.id);
    const p = await createProductWithPrice(api.knex, other.org.id);
    const foreign = await createOrder(api.knex, other.org.id, { customerId: c.id, productId: p.product.id });
    await rejects(polar.orders.invoice({ id: foreign.id }), ResourceNotFound);
    expect(await generated(pending.id)).toBe(false);
  });
});
