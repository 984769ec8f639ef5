// HTTP handlers of the event operations.
import { orgCaller, type Handlers } from "../kit/context.js";
import { getEvent, ingestEvents, listEventNames, listEvents } from "./service.js";

type EventOps = "events:ingest" | "events:list" | "events:list_names" | "events:get";

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
};
