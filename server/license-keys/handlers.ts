// HTTP handlers of the license key operations: the merchant's (organization token) and the
// portal's (customer session for list / get; none for validate / activate / deactivate, which a
// key holder's app calls with the key and its organization).
import { orgCaller, type Handlers, portalCustomer } from "../kit/context.js";
import {
  activateLicenseKey,
  deactivateLicenseKey,
  getActivation,
  getCustomerLicenseKey,
  getLicenseKey,
  listCustomerLicenseKeys,
  listLicenseKeys,
  updateLicenseKey,
  validateLicenseKey,
} from "./service.js";

type LicenseKeyOps =
  | "license_keys:list"
  | "license_keys:get"
  | "license_keys:update"
  | "license_keys:get_activation"
  | "license_keys:validate"
  | "license_keys:activate"
  | "license_keys:deactivate"
  | "customer_portal:license_keys:list"
  | "customer_portal:license_keys:get"
  | "customer_portal:license_keys:validate"
  | "customer_portal:license_keys:activate"
  | "customer_portal:license_keys:deactivate";

export const licenseKeyHandlers: Handlers<LicenseKeyOps> = {
  "license_keys:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listLicenseKeys(ctx.db, orgCaller(ctx), query ?? {}),
  }),
  "license_keys:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getLicenseKey(ctx.db, orgCaller(ctx), params.id),
  }),
  "license_keys:update": async ({ params, body }, ctx) => ({
    status: 200,
    body: await updateLicenseKey(ctx.db, orgCaller(ctx), params.id, body),
  }),
  "license_keys:get_activation": async ({ params }, ctx) => ({
    status: 200,
    body: await getActivation(ctx.db, orgCaller(ctx), params.id, params.activation_id),
  }),
  "license_keys:validate": async ({ body }, ctx) => ({
    status: 200,
    body: await validateLicenseKey(ctx.db, orgCaller(ctx), body),
  }),
  "license_keys:activate": async ({ body }, ctx) => ({
    status: 200,
    body: await activateLicenseKey(ctx.db, orgCaller(ctx), body),
  }),
  "license_keys:deactivate": async ({ body }, ctx) => {
    await deactivateLicenseKey(ctx.db, orgCaller(ctx), body);
    return { status: 204, body: null };
  },
  "customer_portal:license_keys:list": async ({ query }, ctx) => ({
    status: 200,
    body: await listCustomerLicenseKeys(ctx.db, portalCustomer(ctx), query ?? {}),
  }),
  "customer_portal:license_keys:get": async ({ params }, ctx) => ({
    status: 200,
    body: await getCustomerLicenseKey(ctx.db, portalCustomer(ctx), params.id),
  }),
  "customer_portal:license_keys:validate": async ({ body }, ctx) => ({
    status: 200,
    body: await validateLicenseKey(ctx.db, null, body),
  }),
  "customer_portal:license_keys:activate": async ({ body }, ctx) => ({
    status: 200,
    body: await activateLicenseKey(ctx.db, null, body),
  }),
  "customer_portal:license_keys:deactivate": async ({ body }, ctx) => {
    await deactivateLicenseKey(ctx.db, null, body);
    return { status: 204, body: null };
  },
};
