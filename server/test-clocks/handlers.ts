// HTTP handlers of the billing test clock operations (a Borealis extension). They hand the service
// the reads of the subscriptions on a clock (subscriptions stand on test clocks).
import { orgCaller, type Handlers } from "../kit/context.js";
import { hasSubscriptions, somethingDueOnClock, subscriptionIdsOnClock } from "../subscriptions/repository.js";
import {
  advanceTestClock,
  attachCustomer,
  createTestClock,
  deleteTestClock,
  getTestClock,
  listTestClocks,
  type TestClockDependents,
} from "./service.js";

type TestClockOps =
  | "test-clocks:list"
  | "test-clocks:create"
  | "test-clocks:get"
  | "test-clocks:delete"
  | "test-clocks:advance"
  | "test-clocks:attach_customer";

const dependents: TestClockDependents = { somethingDueOnClock, subscriptionIdsOnClock, hasSubscriptions };

export const testClockHandlers: Handlers<TestClockOps> = {
  "test-clocks:list": async ({ query }, ctx) => ({ status: 200, body: await listTestClocks(ctx.db, orgCaller(ctx), query, dependents) }),
  "test-clocks:create": async ({ body }, ctx) => ({ status: 201, body: await createTestClock(ctx.db, orgCaller(ctx), body, dependents) }),
  "test-clocks:get": async ({ params }, ctx) => ({ status: 200, body: await getTestClock(ctx.db, orgCaller(ctx), params.id, dependents) }),
  "test-clocks:delete": async ({ params }, ctx) => {
    await deleteTestClock(ctx.db, orgCaller(ctx), params.id);
    return { status: 204, body: null };
  },
  "test-clocks:advance": async ({ params, body }, ctx) => ({
    status: 200,
    body: await advanceTestClock(ctx.uow, orgCaller(ctx), params.id, body, dependents),
  }),
  "test-clocks:attach_customer": async ({ params, body }, ctx) => ({
    status: 200,
    body: await attachCustomer(ctx.db, orgCaller(ctx), params.id, body, dependents),
  }),
};
