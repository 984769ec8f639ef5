// The SDK walk's steps: every operation we serve, called through the official client in an order
// that makes its own data through the API (an organization and its token come from the harness):
// products, benefits, a subscription and a one-time purchase confirmed on the sandbox, orders,
// refunds, a dispute, license keys, usage, files, webhooks, the portal, OAuth2; deletions come last.
import { createHash, randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { foldUsage } from "../../server/meters/fold.js";
import { appendTransaction, lockOrCreate } from "../../server/wallets/repository.js";
import { latestMail, linkIn, type Browser } from "../harness/index.js";
import { consent, REDIRECT, type Registered } from "../oauth2/flow.js";
import type { Step, Vars } from "./sdk-walk.js";

export interface WalkHarness {
  apiUrl: string;
  knex: Knex;
  /** A signed-in user owning an organization (organizations:create, OAuth2 consent). */
  owner: Browser;
  /** An OAuth2 client that user registered. */
  oauthClient: Registered;
  /** Where webhook deliveries go. */
  receiverUrl: string;
}

const FILE = Buffer.from("%PDF-1.4 walk guide");
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("base64");
/** FILE declared as a downloadable in one part. */
const fileCreate = (name: string) => ({
  service: "downloadable",
  name,
  mimeType: "application/pdf",
  size: FILE.length,
  checksumSha256Base64: sha256(FILE),
  upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: FILE.length, checksumSha256Base64: sha256(FILE) }] },
});

/** The authorize call's query: what the OAuth2 app asks of the signed-in user. */
export function authorizeQuery(client: Registered): string {
  return new URLSearchParams({ client_id: client.client_id, scope: "openid email products:read", redirect_uri: REDIRECT }).toString();
}

/** The code the signed-in user's consent gives the OAuth2 app (scopes for a refresh token and userinfo). */
export async function consentCode(apiUrl: string, owner: Browser, client: Registered): Promise<string> {
  const url = new URL(`${apiUrl}/api/auth/oauth2/authorize`);
  const query = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: "openid profile email offline_access",
    state: "s",
    nonce: randomUUID(),
  };
  url.search = new URLSearchParams(query).toString();
  const code = (await consent(apiUrl, owner, url)).searchParams.get("code");
  if (!code) throw new Error("the consent gave no code");
  return code;
}

export function walkSteps(h: WalkHarness): Step[] {
  const tag = randomUUID().slice(0, 8);
  const session = (v: Vars) => ({ customerSession: v.portalToken });
  const oauth = { clientId: h.oauthClient.client_id, clientSecret: h.oauthClient.client_secret };
  const newEmail = `walker-moved-${tag}@example.com`;
  const confirmBody = { customerBillingAddress: { country: "FR" }, confirmationTokenId: "tok_sandbox_success" };
  return [
    // The organization, and one the signed-in user creates.
    { fn: "organizationsGet", args: (v) => [{ id: v.organizationId }] },
    { fn: "organizationsList", args: () => [{}] },
    { fn: "organizationsUpdate", args: (v) => [{ id: v.organizationId, organizationUpdate: { name: `Walk ${tag}` } }] },
    { fn: "organizationsCreate", as: "user", args: () => [{ name: "Walk Two", slug: `walk-two-${tag}` }] },
    { fn: "metricsLimits" },
    { fn: "metricsGet", args: (_v, lib) => [{ startDate: lib.date("2025-01-01"), endDate: lib.date("2025-01-31"), interval: "week" }] },
    { fn: "metricsExport", args: (_v, lib) => [{ startDate: lib.date("2025-01-01"), endDate: lib.date("2025-01-31"), interval: "week" }] },
    { fn: "metricsCreateDashboard", args: () => [{ name: "Walk", metrics: ["revenue"] }], keep: { dashboardId: "id" } },
    { fn: "metricsListDashboards", args: () => [{}] },
    { fn: "metricsGetDashboard", args: (v) => [{ id: v.dashboardId }] },
    { fn: "metricsUpdateDashboard", args: (v) => [{ id: v.dashboardId, metricDashboardUpdate: { metrics: ["orders", "revenue"] } }] },
    { fn: "metricsDeleteDashboard", args: (v) => [{ id: v.dashboardId }] },

    // A webhook endpoint first, so that what follows is delivered to it.
    {
      fn: "webhooksCreateWebhookEndpoint",
      args: () => [{ url: `${h.receiverUrl}/walk-${tag}`, format: "raw", events: ["product.created", "customer.created", "order.paid"] }],
      keep: { endpointId: "id" },
    },
    { fn: "webhooksGetWebhookEndpoint", args: (v) => [{ id: v.endpointId }] },
    { fn: "webhooksListWebhookEndpoints", args: () => [{}] },
    {
      fn: "webhooksUpdateWebhookEndpoint",
      args: (v) => [
        { id: v.endpointId, webhookEndpointUpdate: { events: ["product.created", "customer.created", "order.paid", "order.created"] } },
      ],
    },
    { fn: "webhooksResetWebhookEndpointSecret", args: (v) => [{ id: v.endpointId }] },

    // A downloadable file, uploaded in one part; a second one, never uploaded, is deleted.
    {
      fn: "filesCreate",
      args: () => [fileCreate("guide.pdf")],
      keep: {
        fileId: "id",
        uploadId: "upload.id",
        uploadPath: "upload.path",
        partUrl: "upload.parts.0.url",
        partHeaders: "upload.parts.0.headers",
      },
    },
    {
      chore: "upload the file's part",
      run: async (v) => {
        const headers = new Headers();
        for (const [k, value] of Object.entries(Object(v.partHeaders))) headers.set(k, String(value));
        const res = await fetch(String(v.partUrl), { method: "PUT", headers, body: Uint8Array.from(FILE) });
        if (res.status !== 200) throw new Error(`part upload answered ${res.status}`);
        v.etag = res.headers.get("etag");
      },
    },
    {
      fn: "filesUploaded",
      args: (v) => [
        {
          id: v.fileId,
          fileUploadCompleted: {
            id: v.uploadId,
            path: v.uploadPath,
            parts: [{ number: 1, checksumEtag: v.etag, checksumSha256Base64: sha256(FILE) }],
          },
        },
      ],
    },
    { fn: "filesList", args: () => [{}] },
    { fn: "filesUpdate", args: (v) => [{ id: v.fileId, filePatch: { name: "Guide.pdf", version: "1.0" } }] },
    {
      fn: "filesCreate",
      args: () => [fileCreate("spare.pdf")],
      keep: { spareFileId: "id" },
    },
    { fn: "filesDelete", args: (v) => [{ id: v.spareFileId }] },

    // Benefits: one of each kind a purchase grants here, and one to delete.
    {
      fn: "benefitsCreate",
      args: () => [{ type: "custom", description: "Walk support", properties: { note: "Mail us" } }],
      keep: { customBenefitId: "id" },
    },
    {
      fn: "benefitsCreate",
      args: () => [
        {
          type: "license_keys",
          description: "Walk license",
          properties: { prefix: "WALK", activations: { limit: 3, enableCustomerAdmin: true }, limitUsage: 100 },
        },
      ],
      keep: { licenseBenefitId: "id" },
    },
    {
      fn: "benefitsCreate",
      args: (v) => [{ type: "downloadables", description: "Walk guide", properties: { files: [v.fileId] } }],
      keep: { downloadBenefitId: "id" },
    },
    {
      fn: "benefitsCreate",
      args: () => [{ type: "custom", description: "Short-lived", properties: { note: null } }],
      keep: { spareBenefitId: "id" },
    },
    { fn: "benefitsGet", args: (v) => [{ id: v.licenseBenefitId }] },
    { fn: "benefitsList", args: () => [{}] },
    { fn: "benefitsUpdate", args: (v) => [{ id: v.customBenefitId, requestBody: { type: "custom", description: "Walk support, 24/7" } }] },
    { fn: "benefitsDelete", args: (v) => [{ id: v.spareBenefitId }] },

    // Products: a monthly subscription with the benefits, and a one-time purchase.
    {
      fn: "productsCreate",
      args: () => [
        { name: "Walk monthly", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 1500, priceCurrency: "usd" }] },
      ],
      keep: { productId: "id" },
    },
    {
      fn: "productsCreate",
      args: () => [
        { name: "Walk e-book", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] },
      ],
      keep: { oneTimeId: "id" },
    },
    { fn: "productsGet", args: (v) => [{ id: v.productId }] },
    { fn: "productsList", args: () => [{}] },
    { fn: "productsUpdate", args: (v) => [{ id: v.oneTimeId, productUpdate: { description: "A guide to walking" } }] },
    {
      fn: "productsUpdateBenefits",
      args: (v) => [{ id: v.productId, productBenefitsUpdate: { benefits: [v.customBenefitId, v.licenseBenefitId, v.downloadBenefitId] } }],
    },

    {
      fn: "customFieldsCreate",
      args: () => [{ type: "text", slug: `company-${tag}`, name: "Company", properties: { formLabel: "Company" } }],
      keep: { customFieldId: "id" },
    },
    { fn: "customFieldsGet", args: (v) => [{ id: v.customFieldId }] },
    { fn: "customFieldsList", args: () => [{}] },
    { fn: "customFieldsUpdate", args: (v) => [{ id: v.customFieldId, customFieldUpdate: { type: "text", name: "Company name" } }] },
    {
      fn: "discountsCreate",
      args: () => [{ name: "Walk", type: "percentage", basisPoints: 1000, duration: "once", code: `WALK${tag}` }],
      keep: { discountId: "id" },
    },
    { fn: "discountsGet", args: (v) => [{ id: v.discountId }] },
    { fn: "discountsList", args: () => [{}] },
    { fn: "discountsUpdate", args: (v) => [{ id: v.discountId, discountUpdate: { name: "Walk ten" } }] },
    { fn: "checkoutLinksCreate", args: (v) => [{ paymentProcessor: "stripe", productId: v.oneTimeId }], keep: { checkoutLinkId: "id" } },
    { fn: "checkoutLinksGet", args: (v) => [{ id: v.checkoutLinkId }] },
    { fn: "checkoutLinksList", args: () => [{}] },
    { fn: "checkoutLinksUpdate", args: (v) => [{ id: v.checkoutLinkId, checkoutLinkUpdate: { label: "Walk link" } }] },

    // Customers: the buyer, and two deleted by id and by external id.
    {
      fn: "customersCreate",
      args: () => [{ email: `walker-${tag}@example.com`, name: "Walker", externalId: `walker-${tag}` }],
      keep: { customerId: "id", externalId: "externalId" },
    },
    { fn: "customersGet", args: (v) => [{ id: v.customerId }] },
    { fn: "customersList", args: () => [{}] },
    { fn: "customersExport", args: () => [{}] },
    { fn: "customersUpdate", args: (v) => [{ id: v.customerId, customerUpdate: { name: "Walker Two" } }] },
    { fn: "customersGetExternal", args: (v) => [{ externalId: v.externalId }] },
    { fn: "customersUpdateExternal", args: (v) => [{ externalId: v.externalId, customerUpdateExternalID: { metadata: { walk: "yes" } } }] },
    { fn: "customersCreate", args: () => [{ email: `gone-${tag}@example.com` }], keep: { goneId: "id" } },
    { fn: "customersDelete", args: (v) => [{ id: v.goneId }] },
    {
      fn: "customersCreate",
      args: () => [{ email: `gone-ext-${tag}@example.com`, externalId: `gone-${tag}` }],
      keep: { goneExternalId: "externalId" },
    },
    { fn: "customersDeleteExternal", args: (v) => [{ externalId: v.goneExternalId }] },

    // A team customer and its members (0.49.0 on), where the organization enabled the Member model.
    {
      fn: "organizationsUpdate",
      args: (v) => [{ id: v.organizationId, organizationUpdate: { featureSettings: { memberModelEnabled: true } } }],
    },
    {
      fn: "customersCreate",
      args: () => [
        { type: "team", email: `team-${tag}@example.com`, externalId: `team-${tag}`, owner: { email: `boss-${tag}@example.com` } },
      ],
      keep: { teamId: "id", teamExternalId: "externalId" },
    },
    { fn: "membersListMembers", args: (v) => [{ customerId: v.teamId }], keep: { ownerId: "result.items.0.id" } },
    {
      fn: "customersMembersCreate",
      args: (v) => [{ id: v.teamId, memberCreateFromCustomer: { email: `ann-${tag}@example.com`, role: "billing_manager" } }],
      keep: { memberId: "id" },
    },
    { fn: "customersMembersGet", args: (v) => [{ id: v.teamId, memberId: v.memberId }] },
    { fn: "customersMembersGet", args: (v) => [{ id: v.teamId, memberId: randomUUID() }], fails: "ResourceNotFound" },
    { fn: "customersMembersUpdate", args: (v) => [{ id: v.teamId, memberId: v.memberId, memberUpdate: { name: "Ann" } }] },
    {
      fn: "customersMembersUpdate",
      args: (v) => [{ id: v.teamId, memberId: v.memberId, memberUpdate: { email: `boss-${tag}@example.com` } }],
      fails: "HTTPValidationError",
    },
    { fn: "customersMembersDelete", args: (v) => [{ id: v.teamId, memberId: v.ownerId }], fails: "HTTPValidationError" },
    {
      fn: "customersMembersCreateExternal",
      args: (v) => [
        { externalId: v.teamExternalId, memberCreateFromCustomer: { email: `bo-${tag}@example.com`, externalId: `bo-${tag}` } },
      ],
      keep: { memberExternalId: "externalId" },
    },
    { fn: "customersMembersGetExternal", args: (v) => [{ externalId: v.teamExternalId, memberExternalId: v.memberExternalId }] },
    {
      fn: "customersMembersUpdateExternal",
      args: (v) => [{ externalId: v.teamExternalId, memberExternalId: v.memberExternalId, memberUpdate: { role: "billing_manager" } }],
    },
    { fn: "customersMembersDeleteExternal", args: (v) => [{ externalId: v.teamExternalId, memberExternalId: v.memberExternalId }] },
    { fn: "customerSessionsCreate", args: (v) => [{ customerId: v.teamId }], keep: { teamToken: "token" } },
    { fn: "customerPortalMembersListMembers", as: "team", args: () => [{}] },
    { fn: "customerPortalMembersAddMember", as: "team", args: () => [{ email: `cy-${tag}@example.com` }], keep: { portalMemberId: "id" } },
    {
      fn: "customerPortalMembersAddMember",
      as: "team",
      args: () => [{ email: `cy-${tag}@example.com`, role: "owner" }],
      fails: "HTTPValidationError",
    },
    {
      fn: "customerPortalMembersUpdateMember",
      as: "team",
      args: (v) => [{ id: v.portalMemberId, customerPortalMemberUpdate: { name: "Cy" } }],
    },
    { fn: "customerPortalMembersRemoveMember", as: "team", args: (v) => [{ id: v.ownerId }], fails: "HTTPValidationError" },
    { fn: "customerPortalMembersRemoveMember", as: "team", args: (v) => [{ id: v.portalMemberId }] },
    { fn: "customersMembersDelete", args: (v) => [{ id: v.teamId, memberId: v.memberId }] },

    // The subscription through a checkout confirmed on the sandbox; then the one-time purchase.
    {
      fn: "checkoutsCreate",
      args: (v) => [{ products: [v.productId], customerId: v.customerId }],
      keep: { checkoutId: "id", clientSecret: "clientSecret" },
    },
    { fn: "checkoutsGet", args: (v) => [{ id: v.checkoutId }] },
    { fn: "checkoutsList", args: () => [{}] },
    { fn: "checkoutsUpdate", args: (v) => [{ id: v.checkoutId, checkoutUpdate: { metadata: { walk: "yes" } } }] },
    { fn: "checkoutsClientGet", as: "anon", args: (v) => [{ clientSecret: v.clientSecret }] },
    {
      fn: "checkoutsClientUpdate",
      as: "anon",
      args: (v) => [{ clientSecret: v.clientSecret, checkoutUpdatePublic: { customerName: "Walker Two" } }],
    },
    { fn: "checkoutsClientConfirm", as: "anon", args: (v) => [{ clientSecret: v.clientSecret, checkoutConfirmStripe: confirmBody }] },
    {
      fn: "checkoutsCreate",
      args: (v) => [{ products: [v.oneTimeId], customerId: v.customerId }],
      keep: { oneTimeSecret: "clientSecret" },
    },
    { fn: "checkoutsClientConfirm", as: "anon", args: (v) => [{ clientSecret: v.oneTimeSecret, checkoutConfirmStripe: confirmBody }] },
    { fn: "customersGetState", args: (v) => [{ id: v.customerId }] },
    { fn: "customersGetStateExternal", args: (v) => [{ externalId: v.externalId }] },
    { fn: "customersListPaymentMethods", args: (v) => [{ id: v.customerId }] },
    { fn: "customersListPaymentMethodsExternal", args: (v) => [{ externalId: v.externalId }] },

    { fn: "subscriptionsList", args: (v) => [{ customerId: v.customerId }], keep: { subscriptionId: "result.items.0.id" } },
    { fn: "subscriptionsGet", args: (v) => [{ id: v.subscriptionId }] },
    { fn: "subscriptionsUpdate", args: (v) => [{ id: v.subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } }] },
    { fn: "subscriptionsUpdate", args: (v) => [{ id: v.subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: false } }] },
    { fn: "subscriptionsExport", args: (v) => [{ organizationId: v.organizationId }] },
    // A comped plan the merchant starts without a checkout (0.49.0 on): free only.
    {
      fn: "productsCreate",
      args: () => [{ name: "Walk free plan", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 0 }] }],
      keep: { freePlanId: "id" },
    },
    { fn: "customersCreate", args: () => [{ email: `comped-${tag}@example.com` }], keep: { compedId: "id" } },
    { fn: "subscriptionsCreate", args: (v) => [{ productId: v.productId, customerId: v.compedId }], fails: "HTTPValidationError" },
    { fn: "subscriptionsCreate", args: (v) => [{ productId: v.freePlanId, customerId: v.compedId }] },
    { fn: "ordersList", args: (v) => [{ productId: v.productId }], keep: { orderId: "result.items.0.id" } },
    { fn: "ordersList", args: (v) => [{ productId: v.oneTimeId }], keep: { oneTimeOrderId: "result.items.0.id" } },
    { fn: "ordersGet", args: (v) => [{ id: v.orderId }] },
    { fn: "ordersExport", args: (v) => [{ productId: v.productId }] },
    {
      fn: "ordersUpdate",
      args: (v) => [{ id: v.orderId, orderUpdate: { billingName: "Walker Inc.", billingAddress: { country: "FR", city: "Paris" } } }],
    },
    { fn: "ordersGenerateInvoice", args: (v) => [{ id: v.orderId }] },
    { fn: "ordersGet", args: (v) => [{ id: v.orderId }], until: ["isInvoiceGenerated", true] },
    { fn: "ordersInvoice", args: (v) => [{ id: v.orderId }] },
    { fn: "ordersReceipt", args: (v) => [{ id: v.orderId }] },
    // A draft order charged off-session (0.49.0 on); free here, so the comped customer needs no card.
    {
      fn: "productsCreate",
      args: () => [{ name: "Walk sample", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 0 }] }],
      keep: { sampleId: "id" },
    },
    { fn: "ordersCreate", args: (v) => [{ customerId: v.compedId, productId: v.sampleId }], keep: { draftId: "id" } },
    { fn: "ordersFinalize", args: (v) => [{ id: v.draftId }] },
    { fn: "ordersFinalize", args: (v) => [{ id: v.draftId }], fails: "OrderNotDraft" },
    { fn: "paymentsList", args: (v) => [{ orderId: v.orderId }], keep: { paymentId: "result.items.0.id" } },
    { fn: "paymentsGet", args: (v) => [{ id: v.paymentId }] },
    { fn: "refundsCreate", args: (v) => [{ orderId: v.orderId, reason: "customer_request", amount: 100 }] },
    { fn: "refundsList", args: (v) => [{ orderId: v.orderId }] },
    // A purchase with the sandbox's dispute card opens a dispute, which the merchant concedes once.
    {
      fn: "checkoutsCreate",
      args: (v) => [{ products: [v.oneTimeId], customerId: v.customerId }],
      keep: { disputedSecret: "clientSecret" },
    },
    {
      fn: "checkoutsClientConfirm",
      as: "anon",
      args: (v) => [
        {
          clientSecret: v.disputedSecret,
          checkoutConfirmStripe: Object.assign({}, confirmBody, { confirmationTokenId: "4000000000000259" }),
        },
      ],
    },
    { fn: "disputesList", args: () => [{ status: "needs_response" }], keep: { disputeId: "result.items.0.id" } },
    { fn: "disputesGet", args: (v) => [{ id: v.disputeId }] },
    { fn: "disputesAccept", args: (v) => [{ id: v.disputeId }] },
    { fn: "disputesAccept", args: (v) => [{ id: v.disputeId }], fails: "DisputeNotOpenError" },

    // What the purchase granted (the grant jobs run on the worker).
    { fn: "benefitsGrants", args: (v) => [{ id: v.customBenefitId }], until: ["result.items.0.isGranted", true] },
    { fn: "benefitGrantsList", args: (v) => [{ customerId: v.customerId, sorting: ["-granted_at"] }] },
    {
      fn: "licenseKeysList",
      args: () => [{}],
      until: "result.items.0.id",
      keep: { licenseKeyId: "result.items.0.id", licenseKey: "result.items.0.key" },
    },
    { fn: "licenseKeysGet", args: (v) => [{ id: v.licenseKeyId }] },
    { fn: "licenseKeysUpdate", args: (v) => [{ id: v.licenseKeyId, licenseKeyUpdate: { limitUsage: 50 } }] },
    { fn: "licenseKeysValidate", args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId }] },
    {
      fn: "licenseKeysActivate",
      args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId, label: "laptop" }],
      keep: { activationId: "id" },
    },
    { fn: "licenseKeysGetActivation", args: (v) => [{ id: v.licenseKeyId, activationId: v.activationId }] },
    { fn: "licenseKeysDeactivate", args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId, activationId: v.activationId }] },

    // Usage: a meter, the buyer's events, the customer meter they make once folded.
    {
      fn: "metersCreate",
      args: () => [
        {
          name: "Walk calls",
          filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "walk_call" }] },
          aggregation: { func: "count" },
        },
      ],
      keep: { meterId: "id" },
    },
    { fn: "metersGet", args: (v) => [{ id: v.meterId }] },
    { fn: "metersList", args: () => [{}] },
    { fn: "metersUpdate", args: (v) => [{ id: v.meterId, meterUpdate: { name: "Walk API calls" } }] },
    { fn: "eventsIngest", args: (v) => [{ events: [{ name: "walk_call", customerId: v.customerId, metadata: { path: "/walk" } }] }] },
    { fn: "eventsList", args: () => [{ name: "walk_call" }], keep: { eventId: "result.items.0.id" } },
    { fn: "eventsGet", args: (v) => [{ id: v.eventId }] },
    { fn: "eventsListNames", args: () => [{}] },
    { fn: "eventTypesList", args: () => [{ source: "user" }], keep: { eventTypeId: "result.items.0.id" } },
    { fn: "eventTypesUpdate", args: (v) => [{ id: v.eventTypeId, eventTypeUpdate: { label: "Walk calls" } }] },
    { chore: "fold usage (the worker's job)", run: async () => void (await foldUsage(h.knex)) },
    {
      fn: "metersQuantities",
      args: (v) => [
        {
          id: v.meterId,
          startTimestamp: new Date(Date.now() - 86_400_000),
          endTimestamp: new Date(Date.now() + 86_400_000),
          interval: "day",
        },
      ],
    },
    {
      fn: "customerMetersList",
      args: (v) => [{ customerId: v.customerId }],
      until: "result.items.0.id",
      keep: { customerMeterId: "result.items.0.id" },
    },
    { fn: "customerMetersGet", args: (v) => [{ id: v.customerMeterId }] },

    // The buyer's portal.
    // Seats of the subscription (0.49.0 on): seat-based pricing on, two seats bought.
    {
      fn: "organizationsUpdate",
      args: (v) => [{ id: v.organizationId, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: true } } }],
    },
    {
      chore: "give the subscription two seats",
      run: async (v) => void (await h.knex("subscriptions").where({ id: v.subscriptionId }).update({ seats: 2 })),
    },
    { fn: "customerSeatsListSeats", args: (v) => [{ subscriptionId: v.subscriptionId }] },
    // A seat count change (0.49.0's SubscriptionUpdateSeats): the walk's price is not seat-based.
    {
      fn: "subscriptionsUpdate",
      since: "0.49.0",
      args: (v) => [{ id: v.subscriptionId, subscriptionUpdate: { seats: 3, prorationBehavior: "prorate" } }],
      fails: "SDKError",
    },
    {
      fn: "subscriptionsUpdate",
      since: "0.49.0",
      args: (v) => [{ id: v.subscriptionId, subscriptionUpdate: { seats: 0 } }],
      fails: "HTTPValidationError",
    },
    { fn: "customerSeatsListSeats", args: () => [{ subscriptionId: randomUUID() }], fails: "SDKError" },
    {
      fn: "customerSeatsAssignSeat",
      args: (v) => [{ subscriptionId: v.subscriptionId, email: `seat-${tag}@example.com` }],
      keep: { seatId: "id" },
    },
    {
      fn: "customerSeatsAssignSeat",
      args: (v) => [{ subscriptionId: v.subscriptionId, email: `seat-${tag}@example.com` }],
      fails: "SDKError",
    },
    { fn: "customerSeatsAssignSeat", args: () => [{ email: `seat-${tag}@example.com` }], fails: "HTTPValidationError" },
    { fn: "customerSeatsResendInvitation", args: (v) => [{ seatId: v.seatId }] },
    { fn: "customerSeatsResendInvitation", args: () => [{ seatId: randomUUID() }], fails: "SDKError" },
    {
      // Only the clients with seats assigned one: the others kept no seat.
      chore: "read the seat's invitation token",
      run: async (v) => {
        if (!("seatId" in v)) return;
        const row: { invitation_token: string } = await h.knex("customer_seats").where({ id: v.seatId }).first("invitation_token");
        v.seatToken = row.invitation_token;
      },
    },
    { fn: "customerSeatsGetClaimInfo", as: "anon", args: (v) => [{ invitationToken: v.seatToken }] },
    { fn: "customerSeatsGetClaimInfo", as: "anon", args: () => [{ invitationToken: "nope" }], fails: "SDKError" },
    {
      fn: "customerSeatsClaimSeat",
      as: "anon",
      args: (v) => [{ invitationToken: v.seatToken }],
      keep: { seatSession: "customerSessionToken" },
    },
    { fn: "customerSeatsClaimSeat", as: "anon", args: (v) => [{ invitationToken: v.seatToken }], fails: "SDKError" },
    { fn: "customerPortalSeatsListClaimedSubscriptions", as: "anon", args: (v) => [{ customerSession: v.seatSession }, {}] },
    { fn: "customerSeatsRevokeSeat", args: (v) => [{ seatId: v.seatId }] },
    { fn: "customerSeatsRevokeSeat", args: () => [{ seatId: randomUUID() }], fails: "SDKError" },
    { fn: "customerSessionsCreate", args: (v) => [{ customerId: v.customerId }], keep: { portalToken: "token" } },
    {
      fn: "customerPortalSeatsAssignSeat",
      as: "anon",
      args: (v) => [session(v), { subscriptionId: v.subscriptionId, email: `portal-seat-${tag}@example.com` }],
      keep: { portalSeatId: "id" },
    },
    {
      fn: "customerPortalSeatsAssignSeat",
      as: "anon",
      args: (v) => [session(v), { subscriptionId: v.subscriptionId, email: `x-${tag}@example.com`, immediateClaim: true }],
      fails: "HTTPValidationError",
    },
    { fn: "customerPortalSeatsListSeats", as: "anon", args: (v) => [session(v), { subscriptionId: v.subscriptionId }] },
    { fn: "customerPortalSeatsListSeats", as: "anon", args: (v) => [session(v), { subscriptionId: randomUUID() }], fails: "SDKError" },
    { fn: "customerPortalSeatsResendInvitation", as: "anon", args: (v) => [session(v), { seatId: v.portalSeatId }] },
    { fn: "customerPortalSeatsRevokeSeat", as: "anon", args: (v) => [session(v), { seatId: v.portalSeatId }] },
    { fn: "customerPortalSeatsResendInvitation", as: "anon", args: (v) => [session(v), { seatId: v.portalSeatId }], fails: "SDKError" },
    { fn: "customerPortalSeatsRevokeSeat", as: "anon", args: (v) => [session(v), { seatId: randomUUID() }], fails: "SDKError" },
    { fn: "customerPortalOrganizationsGet", as: "anon", args: (v) => [{ slug: v.organizationSlug }] },
    { fn: "customerPortalCustomersGet", as: "anon", args: (v) => [session(v)] },
    { fn: "customerPortalCustomerSessionIntrospect", as: "anon", args: (v) => [session(v)] },
    {
      fn: "customerPortalCustomersUpdate",
      as: "anon",
      args: (v) => [session(v), { billingName: "Walker SARL", billingAddress: { country: "FR", city: "Lyon" } }],
    },
    {
      chore: "let the organization's customers change their email",
      run: async (v) => {
        await h
          .knex("organizations")
          .where({ id: v.organizationId })
          .update({ customer_portal_settings: { customer: { allow_email_change: true } } });
      },
    },
    { fn: "customerPortalCustomersRequestEmailUpdate", as: "anon", args: (v) => [session(v), { email: newEmail }] },
    {
      // Only the clients with the email change asked for a code: the others find no email.
      chore: "read the email change code (Mailpit)",
      run: async (v) => {
        const mail = await latestMail(newEmail, { timeoutMs: 3_000 }).catch(() => null);
        if (mail) v.emailCode = new URL(linkIn(mail, "/portal/verify-email")).searchParams.get("token");
      },
    },
    { fn: "customerPortalCustomersCheckEmailUpdate", as: "anon", args: (v) => [{ token: v.emailCode }] },
    { fn: "customerPortalCustomersVerifyEmailUpdate", as: "anon", args: (v) => [{ token: v.emailCode }] },
    { fn: "customerPortalCustomersListPaymentMethods", as: "anon", args: (v) => [session(v), {}] },
    {
      fn: "customerPortalCustomersAddPaymentMethod",
      as: "anon",
      args: (v) => [session(v), { confirmationTokenId: "tok_sandbox_success", setDefault: false, returnUrl: "https://example.com/back" }],
      // 0.34.17 reads the method bare, 0.49.0 under payment_method.
      keep: { paymentMethodId: ["id", "paymentMethod.id"] },
    },
    { fn: "customerPortalCustomersDeletePaymentMethod", as: "anon", args: (v) => [session(v), { id: v.paymentMethodId }] },
    {
      chore: "add a card that needs 3-D Secure (its setup waits)",
      run: async (v) => {
        const res = await fetch(`${h.apiUrl}/v1/customer-portal/customers/me/payment-methods`, {
          method: "POST",
          headers: { authorization: `Bearer ${String(v.portalToken)}`, "content-type": "application/json" },
          body: JSON.stringify({
            confirmation_token_id: "tok_sandbox_requires_action",
            set_default: false,
            return_url: "https://example.com/back",
          }),
        });
        const body: { client_secret?: string } = await res.json();
        if (res.status !== 201 || !body.client_secret) throw new Error(`the add answered ${res.status}`);
        v.setupIntentId = body.client_secret.replace(/_secret$/, "");
      },
    },
    {
      fn: "customerPortalCustomersConfirmPaymentMethod",
      as: "anon",
      args: (v) => [session(v), { setupIntentId: v.setupIntentId, setDefault: false }],
    },
    { fn: "customerPortalCustomerSessionGetAuthenticatedUser", as: "anon", args: (v) => [session(v)] },
    { fn: "customerPortalOrdersList", as: "anon", args: (v) => [session(v), {}] },
    { fn: "customerPortalOrdersGet", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }] },
    {
      fn: "customerPortalOrdersUpdate",
      as: "anon",
      args: (v) => [
        session(v),
        { id: v.oneTimeOrderId, customerOrderUpdate: { billingName: "Walker SARL", billingAddress: { country: "FR", city: "Lyon" } } },
      ],
    },
    { fn: "customerPortalOrdersGetPaymentStatus", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }] },
    { fn: "customerPortalOrdersGenerateInvoice", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }] },
    { fn: "customerPortalOrdersGet", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }], until: ["isInvoiceGenerated", true] },
    { fn: "customerPortalOrdersInvoice", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }] },
    { fn: "customerPortalOrdersReceipt", as: "anon", args: (v) => [session(v), { id: v.oneTimeOrderId }] },
    // A paid order has nothing to retry: the client's typed error.
    {
      fn: "customerPortalOrdersConfirmRetryPayment",
      as: "anon",
      args: (v) => [session(v), { id: v.oneTimeOrderId, customerOrderConfirmPayment: { confirmationTokenId: "tok_sandbox_success" } }],
      fails: "OrderNotEligibleForRetry",
    },
    { fn: "customerPortalSubscriptionsList", as: "anon", args: (v) => [session(v), {}] },
    { fn: "customerPortalSubscriptionsGet", as: "anon", args: (v) => [session(v), { id: v.subscriptionId }] },
    {
      fn: "customerPortalSubscriptionsUpdate",
      as: "anon",
      args: (v) => [session(v), { id: v.subscriptionId, customerSubscriptionUpdate: { cancelAtPeriodEnd: true } }],
    },
    {
      fn: "customerPortalSubscriptionsUpdate",
      as: "anon",
      args: (v) => [session(v), { id: v.subscriptionId, customerSubscriptionUpdate: { cancelAtPeriodEnd: false } }],
    },
    {
      fn: "customerPortalSubscriptionsUpdate",
      as: "anon",
      since: "0.49.0",
      args: (v) => [session(v), { id: v.subscriptionId, customerSubscriptionUpdate: { seats: 3 } }],
      fails: "SDKError",
    },
    {
      fn: "customerPortalBenefitGrantsList",
      as: "anon",
      args: (v) => [session(v), { benefitId: v.customBenefitId }],
      keep: { grantId: "result.items.0.id" },
    },
    { fn: "customerPortalBenefitGrantsGet", as: "anon", args: (v) => [session(v), { id: v.grantId }] },
    {
      fn: "customerPortalBenefitGrantsUpdate",
      as: "anon",
      args: (v) => [session(v), { id: v.grantId, customerBenefitGrantUpdate: { benefitType: "custom" } }],
    },
    { fn: "customerPortalCustomerMetersList", as: "anon", args: (v) => [session(v), {}], keep: { portalMeterId: "result.items.0.id" } },
    { fn: "customerPortalCustomerMetersGet", as: "anon", args: (v) => [session(v), { id: v.portalMeterId }] },
    {
      chore: "credit the customer's wallet (the merchant's wallets:credit)",
      run: async (v) => {
        await h.knex.transaction(async (trx) => {
          const wallet = await lockOrCreate(trx, String(v.organizationId), String(v.customerId), "usd");
          await appendTransaction(trx, wallet, { kind: "credit", amount: 1500 });
        });
      },
    },
    { fn: "customerPortalWalletsList", as: "anon", args: (v) => [session(v), {}], keep: { portalWalletId: "result.items.0.id" } },
    { fn: "customerPortalWalletsGet", as: "anon", args: (v) => [session(v), { id: v.portalWalletId }] },
    { fn: "customerPortalWalletsGet", as: "anon", args: (v) => [session(v), { id: randomUUID() }], fails: "ResourceNotFound" },
    { fn: "customerPortalWalletsGet", as: "anon", args: (v) => [session(v), { id: "not-a-uuid" }], fails: "HTTPValidationError" },
    { fn: "customerPortalDownloadablesList", as: "anon", args: (v) => [session(v), {}], until: "result.items.0.file.id" },
    { fn: "customerPortalLicenseKeysList", as: "anon", args: (v) => [session(v), {}] },
    { fn: "customerPortalLicenseKeysGet", as: "anon", args: (v) => [session(v), { id: v.licenseKeyId }] },
    { fn: "customerPortalLicenseKeysValidate", as: "anon", args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId }] },
    {
      fn: "customerPortalLicenseKeysActivate",
      as: "anon",
      args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId, label: "desktop" }],
      keep: { portalActivationId: "id" },
    },
    {
      fn: "customerPortalLicenseKeysDeactivate",
      as: "anon",
      args: (v) => [{ key: v.licenseKey, organizationId: v.organizationId, activationId: v.portalActivationId }],
    },

    // What the endpoint was sent.
    {
      fn: "webhooksListWebhookDeliveries",
      args: (v) => [{ endpointId: v.endpointId }],
      until: "result.items.0.webhookEvent.id",
      keep: { webhookEventId: "result.items.0.webhookEvent.id" },
    },
    { fn: "webhooksRedeliverWebhookEvent", args: (v) => [{ id: v.webhookEventId }] },

    // OAuth2: what the app asks, the user's consent, the tokens.
    { fn: "oauth2Authorize", as: "authorize" },
    { chore: "consent as the signed-in user", run: async (v) => void (v.oauthCode = await consentCode(h.apiUrl, h.owner, h.oauthClient)) },
    {
      fn: "oauth2Token",
      as: "anon",
      args: (v) => [Object.assign({ grantType: "authorization_code", code: v.oauthCode, redirectUri: REDIRECT }, oauth)],
      keep: { oauthRefreshToken: "refreshToken" },
    },
    {
      fn: "oauth2Token",
      as: "anon",
      args: (v) => [Object.assign({ grantType: "refresh_token", refreshToken: v.oauthRefreshToken }, oauth)],
      keep: { oauthAccessToken: "accessToken" },
    },
    { fn: "oauth2Introspect", as: "anon", args: (v) => [Object.assign({ token: v.oauthAccessToken }, oauth)] },
    { fn: "oauth2Userinfo", as: "oauth" },
    { fn: "oauth2Revoke", as: "anon", args: (v) => [Object.assign({ token: v.oauthAccessToken }, oauth)] },

    // A second buyer, signed up by their purchase, cancels (revokes) in the portal.
    { fn: "checkoutsCreate", args: (v) => [{ products: [v.productId] }], keep: { secondCheckoutId: "id", secondSecret: "clientSecret" } },
    {
      fn: "checkoutsClientConfirm",
      as: "anon",
      args: (v) => [
        { clientSecret: v.secondSecret, checkoutConfirmStripe: Object.assign({ customerEmail: `second-${tag}@example.com` }, confirmBody) },
      ],
    },
    { fn: "checkoutsGet", args: (v) => [{ id: v.secondCheckoutId }], keep: { secondCustomerId: "customerId" } },
    { fn: "customerSessionsCreate", args: (v) => [{ customerId: v.secondCustomerId }], keep: { secondSession: "token" } },
    {
      fn: "customerPortalSubscriptionsList",
      as: "anon",
      args: (v) => [{ customerSession: v.secondSession }, {}],
      keep: { secondSubscriptionId: "result.items.0.id" },
    },
    {
      fn: "customerPortalSubscriptionsCancel",
      as: "anon",
      args: (v) => [{ customerSession: v.secondSession }, { id: v.secondSubscriptionId }],
    },

    // Another customer's wallet is not theirs to read.
    {
      fn: "customerPortalWalletsGet",
      as: "anon",
      args: (v) => [{ customerSession: v.secondSession }, { id: v.portalWalletId }],
      fails: "ResourceNotFound",
    },

    // OAuth2 client registration as the signed-in user.
    {
      fn: "oauth2ClientsCreate",
      as: "user",
      args: () => [{ clientName: `Walk ${tag}`, redirectUris: [REDIRECT], scope: "openid profile email" }],
      keep: { walkClientId: "client_id" },
    },
    { fn: "oauth2ClientsGet", as: "user", args: (v) => [{ clientId: v.walkClientId }] },
    {
      fn: "oauth2ClientsUpdate",
      as: "user",
      args: (v) => [
        {
          clientId: v.walkClientId,
          oAuth2ClientConfigurationUpdate: {
            clientId: v.walkClientId,
            clientName: `Walk ${tag}, renamed`,
            redirectUris: [REDIRECT],
            scope: "openid profile email",
          },
        },
      ],
    },
    { fn: "oauth2ClientsDelete", as: "user", args: (v) => [{ clientId: v.walkClientId }] },

    // The end of it all.
    { fn: "subscriptionsRevoke", args: (v) => [{ id: v.subscriptionId }] },
    { fn: "checkoutLinksDelete", args: (v) => [{ id: v.checkoutLinkId }] },
    { fn: "customFieldsDelete", args: (v) => [{ id: v.customFieldId }] },
    { fn: "discountsDelete", args: (v) => [{ id: v.discountId }] },
    { fn: "webhooksDeleteWebhookEndpoint", args: (v) => [{ id: v.endpointId }] },
  ];
}
