// HTTP handlers of the event operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { listEventTypes, updateEventType } from "./event-types.js";
import { getEvent, ingestEvents, listEventNames, listEvents } from "./service.js";

type EventOps = "events:ingest" | "events:list" | "events:list_names" | "events:get" | "event-types:list" | "event-types:update";

export const eventHandlers: Handlers<EventOps> = {
  "events:ingest": async ({ body }, ctx) => ({
    status: 200,
    body: await ingestEvents(ctx.db, orgCaller(ctx), body),
  }),
  "events:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listEvents(ctx.db, orgCaller(ctx), query),
  }),
  "events:list_names": async ({ query }, ctx) => ({
    status: 200,
    body: await listEventNames(ctx.db, orgCaller(ctx), query),
  }),
  "events:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getEvent(ctx.db, orgCaller(ctx), params.id),
  }),
  "event-types:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listEventTypes(ctx.db, orgCaller(ctx), query),
  }),
  "event-types:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateEventType(ctx.db, orgCaller(ctx), params.id, body),
  }),
};
