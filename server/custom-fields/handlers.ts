// HTTP handlers of the custom field operations. They hand the service the detaching of a deleted
// field from the products that ask for it (products stand on custom fields).
import { orgCaller, type Handlers } from "../kit/context.js";
import { detachCustomField } from "../products/repository.js";
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
  type CustomFieldDependents,
} from "./service.js";

type CustomFieldOps = "custom-fields:create" | "custom-fields:get" | "custom-fields:list" | "custom-fields:update" | "custom-fields:delete";

const dependents: CustomFieldDependents = { detachCustomField };

export const customFieldHandlers: Handlers<CustomFieldOps> = {
  "custom-fields:create": async ({ body }, ctx) => ({
    status: 201,
    body: await createCustomField(ctx.db, orgCaller(ctx), body),
  }),
  "custom-fields:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomField(ctx.db, orgCaller(ctx), params.id),
  }),
  "custom-fields:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomFields(ctx.db, orgCaller(ctx), query),
  }),
  "custom-fields:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateCustomField(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "custom-fields:delete": async ({ params }, ctx) => {
    await deleteCustomField(ctx.db, orgCaller(ctx), params.id, dependents);
    return { status: 204, body: null };
  },
};
