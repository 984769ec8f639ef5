// A worker's direct run in a process of its own, for the test that kills a worker during one:
// `tsx test/webhooks/direct-process.ts` with WH_DATABASE_URL, WH_ORGANIZATION_ID, WH_ENDPOINT_ID,
// WH_OUTBOX_ID and WH_LEASE_MS. Queues one event for the endpoint and takes its delivery lease in
// one transaction, as the outbox fan-out does, then starts the direct run and prints "ready".
import { randomUUID } from "node:crypto";
import { createKnex } from "../../server/kit/db.js";
import { DirectDeliveries } from "../../server/webhooks/direct.js";
import { leaseIdleEndpoints } from "../../server/webhooks/repository.js";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const knex = createKnex(env("WH_DATABASE_URL"));
const endpointId = env("WH_ENDPOINT_ID");
const outboxId = Number(env("WH_OUTBOX_ID"));
const direct = new DirectDeliveries(knex, { leaseMs: Number(env("WH_LEASE_MS")) });
const lease = randomUUID();
const leased = await knex.transaction(async (trx) => {
  await trx("webhook_events").insert({
    organization_id: env("WH_ORGANIZATION_ID"),
    endpoint_id: endpointId,
    outbox_id: outboxId,
    type: "order.created",
    payload: JSON.stringify({ type: "order.created", timestamp: new Date().toISOString(), data: { n: 1 } }),
  });
  return leaseIdleEndpoints(trx, [endpointId], [outboxId], lease, direct.leaseMs);
});
if (leased.length !== 1) throw new Error("the endpoint's lease was not free");
direct.start(leased, lease, async () => {
  throw new Error("this process is killed before any hand-over");
});
console.log("ready");
