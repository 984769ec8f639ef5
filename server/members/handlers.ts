// HTTP handlers of the member operations: the merchant's, by customer id or external id, the
// organization-wide list, and the customer portal's for a team's owner and billing managers.
import { orgCaller, portalCustomer, type Handlers } from "../kit/context.js";
import {
  createMember,
  deleteMember,
  getMember,
  listMembers,
  portalAddMember,
  portalListMembers,
  portalRemoveMember,
  portalUpdateMember,
  updateMember,
} from "./service.js";

type MemberOps =
  | "customers:members:create"
  | "customers:members:get"
  | "customers:members:update"
  | "customers:members:delete"
  | "customers:members:create_external"
  | "customers:members:get_external"
  | "customers:members:update_external"
  | "customers:members:delete_external"
  | "members:list_members"
  | "customer_portal:members:list_members"
  | "customer_portal:members:add_member"
  | "customer_portal:members:update_member"
  | "customer_portal:members:remove_member";

export const memberHandlers: Handlers<MemberOps> = {
  "customers:members:create": async ({ params, body }, ctx) => ({
    status: 201,
    body: await createMember(ctx.db, orgCaller(ctx), { id: params.id }, body),
  }),
  "customers:members:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getMember(ctx.db, orgCaller(ctx), { id: params.id }, { id: params.member_id }),
  }),
  "customers:members:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateMember(ctx.db, orgCaller(ctx), { id: params.id }, { id: params.member_id }, body),
  }),
  "customers:members:delete": async ({ params }, ctx) => {
    await deleteMember(ctx.db, orgCaller(ctx), { id: params.id }, { id: params.member_id });
    return { status: 204, body: null };
  },
  "customers:members:create_external": async ({ params, body }, ctx) => ({
    status: 201,
    body: await createMember(ctx.db, orgCaller(ctx), { externalId: params.external_id }, body),
  }),
  "customers:members:get_external": async ({ params }, ctx) => ({
    status: 200,
    body: await getMember(ctx.db, orgCaller(ctx), { externalId: params.external_id }, { externalId: params.member_external_id }),
  }),
  "customers:members:update_external": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateMember(ctx.db, orgCaller(ctx), { externalId: params.external_id }, { externalId: params.member_external_id }, body),
  }),
  "customers:members:delete_external": async ({ params }, ctx) => {
    await deleteMember(ctx.db, orgCaller(ctx), { externalId: params.external_id }, { externalId: params.member_external_id });
    return { status: 204, body: null };
  },
  "members:list_members": async ({ query }, ctx) => ({
    status: 200,
    body: await listMembers(ctx.db, orgCaller(ctx), query),
  }),
  "customer_portal:members:list_members": async ({ query }, ctx) => ({
    status: 200,
    body: await portalListMembers(ctx.db, portalCustomer(ctx), query),
  }),
  "customer_portal:members:add_member": async ({ body }, ctx) => ({
    status: 201,
    body: await portalAddMember(ctx.db, portalCustomer(ctx), body),
  }),
  "customer_portal:members:update_member": async ({ params, body }, ctx) => ({
    status: 200,
    body: await portalUpdateMember(ctx.db, portalCustomer(ctx), params.id, body),
  }),
  "customer_portal:members:remove_member": async ({ params }, ctx) => {
    await portalRemoveMember(ctx.db, portalCustomer(ctx), params.id);
    return { status: 204, body: null };
  },
};
