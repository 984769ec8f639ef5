// HTTP handlers of the meter operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { meterQuantities } from "./quantities.js";
import { createMeter, getMeter, listMeters, updateMeter } from "./service.js";

type MeterOps = "meters:create" | "meters:get" | "meters:list" | "meters:update" | "meters:quantities";

export const meterHandlers: Handlers<MeterOps> = {
  "meters:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createMeter(ctx.db, orgCaller(ctx), body),
  }),
  "meters:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getMeter(ctx.db, orgCaller(ctx), params.id),
  }),
  "meters:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listMeters(ctx.db, orgCaller(ctx), query),
  }),
  "meters:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateMeter(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "meters:quantities": async ({ params, query }, ctx) => ({
    status: 200,
    body: await meterQuantities(ctx.db, orgCaller(ctx), params.id, query),
  }),
};
