// HTTP handlers of the customer operations, by id and by external id. They hand the services what
// they need of the domains that stand on customers (CustomerDependents).
import { revokeCustomerSessions } from "../customer-sessions/repository.js";
import { orgCaller, type Handlers } from "../kit/context.js";
import { attributeExternalEvents } from "../meters/rollups.js";
import { exportCustomers } from "./export.js";
import { createOwnerMember, deleteMembersOfCustomer, syncOwnerEmail } from "../members/service.js";
import { readCustomerState } from "../subscriptions/customer-state.js";
import { liveSubscriptionOf } from "../subscriptions/repository.js";
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  getCustomerState,
  listCustomerPaymentMethods,
  listCustomers,
  updateCustomer,
  type CustomerDependents,
} from "./service.js";

type CustomerOps =
  | "customers:create"
  | "customers:get"
  | "customers:list"
  | "customers:update"
  | "customers:delete"
  | "customers:get_external"
  | "customers:update_external"
  | "customers:delete_external"
  | "customers:get_state"
  | "customers:get_state_external"
  | "customers:list_payment_methods"
  | "customers:list_payment_methods_external"
  | "customers:export";

const dependents: CustomerDependents = {
  attributeExternalEvents,
  readCustomerState,
  revokeCustomerSessions,
  liveSubscriptionOf,
  createOwnerMember,
  deleteMembersOfCustomer,
  syncOwnerEmail,
};

export const customerHandlers: Handlers<CustomerOps> = {
  "customers:export": async ({ query }, ctx) => ({
    status: 200,
    body: await exportCustomers(ctx.db, orgCaller(ctx), query),
  }),
  "customers:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCustomer(ctx.db, orgCaller(ctx), body, dependents),
  }),
  "customers:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomer(ctx.db, orgCaller(ctx), { id: params.id }),
  }),
  "customers:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomers(ctx.db, orgCaller(ctx), query, dependents),
  }),
  "customers:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCustomer(ctx.db, orgCaller(ctx), { id: params.id }, body, dependents),
  }),
  "customers:delete": async ({ params, query }, ctx) => {
    await deleteCustomer(ctx.db, orgCaller(ctx), { id: params.id }, dependents, { anonymize: query.anonymize });
    return { status: 204, body: null };
  },
  "customers:get_external": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomer(ctx.db, orgCaller(ctx), { externalId: params.external_id }),
  }),
  "customers:update_external": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCustomer(ctx.db, orgCaller(ctx), { externalId: params.external_id }, body, dependents),
  }),
  "customers:delete_external": async ({ params, query }, ctx) => {
    await deleteCustomer(ctx.db, orgCaller(ctx), { externalId: params.external_id }, dependents, { anonymize: query.anonymize });
    return { status: 204, body: null };
  },
  "customers:get_state": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerState(ctx.db, orgCaller(ctx), { id: params.id }, dependents),
  }),
  "customers:get_state_external": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerState(ctx.db, orgCaller(ctx), { externalId: params.external_id }, dependents),
  }),
  "customers:list_payment_methods": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listCustomerPaymentMethods(ctx.db, orgCaller(ctx), { id: params.id }, query),
  }),
  "customers:list_payment_methods_external": async ({ params, query }, ctx) => ({
    status: 200,
    body: await listCustomerPaymentMethods(ctx.db, orgCaller(ctx), { externalId: params.external_id }, query),
  }),
};
