// The import rules of the codebase, checked by `make deps-graph` (a step of `make test`).
// Type-only imports count: a circle of types is still a circle a reader has to walk, and
// every one of them was fixable by moving the shared type to the module that owns it.
/* global module */

/** A domain's handlers (handlers.ts, *-handlers.ts): only server/handlers.ts imports them. */
const HANDLERS = "/(handlers|[a-z-]*-handlers)\\.ts$";

/**
 * A direction between domains (each a `|` list of folders): nothing in server/<lower>/ imports
 * server/<higher>/, its repositories included, except the lower domain's handlers: they are its
 * composition edge and hand its services the higher domain's functions (the `…Dependents` types).
 */
function below(name, lower, higher, comment) {
  return {
    name,
    severity: "error",
    comment,
    from: { path: `^server/(${lower})/`, pathNot: HANDLERS },
    to: { path: `^server/(${higher})/` },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circles: move the shared piece to a leaf module or invert the dependency.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-not-into-workflow-internals",
      severity: "error",
      comment:
        "The server reaches Temporal only through its one door (server/workflows-door.ts, with workflows/client.ts) and workflows/shared; " +
        "activities and workflow code are the worker's.",
      from: { path: "^server/" },
      to: { path: "^workflows/(activities|workflows)/" },
    },
    {
      name: "workflow-code-imports-only-shared-and-temporal",
      severity: "error",
      comment:
        "Workflow code is deterministic: it imports workflows/shared, other workflow files and @temporalio/workflow " +
        "(activity interfaces as types only, from workflows/activities).",
      from: { path: "^workflows/workflows/" },
      to: {
        pathNot: ["^workflows/workflows/", "^workflows/shared/", "^node_modules/@temporalio/(workflow|common)/"],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "workflow-code-types-only-from-shared-activities",
      severity: "error",
      comment: "Workflow code may take type-only imports from activities (proxyActivities<typeof …>), nothing from server/.",
      from: { path: "^workflows/workflows/" },
      to: { path: "^(server|generated)/" },
    },
    {
      name: "activities-take-server-as-types",
      severity: "error",
      comment:
        "Activities receive the server's services through createActivities(deps) (workflows/activities/deps.ts), built in " +
        "workflows/activity-deps.ts; they import server/ as types only, so no circle runs server → workflows → activities → server.",
      from: { path: "^workflows/activities/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-is-a-leaf",
      severity: "error",
      comment: "workflows/shared is imported by both sides, so it imports only Temporal's workflow API.",
      from: { path: "^workflows/shared/" },
      to: { pathNot: ["^workflows/shared/", "^node_modules/@temporalio/(workflow|common)/"] },
    },
    {
      name: "top-shared-is-plain",
      severity: "error",
      comment: "shared/ runs in the server and in the browser apps' bundles: it imports nothing outside itself.",
      from: { path: "^shared/" },
      to: { pathNot: "^shared/" },
    },
    {
      name: "emails-is-a-leaf",
      severity: "error",
      comment:
        "emails/ renders what it is given (messages.ts props, links included): it imports only itself, React and " +
        "react-email; the server loads the props and imports emails/src/index.ts.",
      from: { path: "^emails/" },
      to: { pathNot: ["^emails/", "^node_modules/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "kit-imports-no-domain",
      severity: "error",
      comment:
        "server/kit/ is the bottom layer every domain stands on: it imports only itself, server/config.ts, generated/ and " +
        "packages (and server/migrations/index.ts, which server/kit/db.ts runs). What kit needs of a domain is declared in kit as a " +
        "shape the domain satisfies (Ctx.auth is an AuthHandler, which better-auth's instance is); a lookup a domain owns " +
        "(a customer session's) is that domain's.",
      from: { path: "^server/kit/" },
      to: {
        pathNot: "^(server/(kit/|config\\.ts$|migrations/index\\.ts$)|generated/|node_modules/)",
        dependencyTypesNot: ["core"],
      },
    },
    // Directions between domains (issue 21): each rule says which domains are below which, so the
    // reverse import (the two would import each other) fails. `make domain-pairs` lists what is left.
    below(
      "domain-directions",
      "orders|subscriptions|benefit-grants|test-clocks",
      "checkouts",
      "Checkouts create orders and subscriptions, subscriptions and orders schedule benefit grants, and subscriptions, " +
        "benefit grants and the portal read a test clock's time: none of them imports checkouts.",
    ),
    below(
      "benefit-grants-below-orders-and-subscriptions",
      "benefit-grants|test-clocks",
      "orders|subscriptions",
      "Orders and subscriptions schedule benefit grants (scheduleBenefit*); benefit grants never import them. The portal's " +
        "grant list reads a checkout's orders and subscriptions and their products through their repositories' builders, " +
        "handed in by benefit-grants/handlers.ts (PortalGrantDependents); a test clock reads the subscriptions on it through " +
        "the ones test-clocks/handlers.ts hands in (TestClockDependents).",
    ),
    below(
      "test-clocks-is-a-leaf-domain",
      "test-clocks",
      "benefit-grants|customer-portal",
      "Subscriptions, benefit grants and the portal ask test-clocks/repository.ts for a clock's time; test clocks import no domain that reads it.",
    ),
    below(
      "orders-below-subscriptions",
      "orders",
      "subscriptions",
      "Subscriptions bill through orders (the renewal and change orders, their payment retries); orders never import " +
        "subscriptions. What both need (the subscription columns and fields an order shows, SubscriptionBaseRow and " +
        "toSubscriptionBase) is declared in orders/. Reading an order's subscription is subscriptions/repository.ts's " +
        "subscriptionBasesByIds, which imports orders/repository.ts: it is handed to orders' reads as their SubscriptionBases " +
        "(OrderDependents) by orders/handlers.ts, workflows/activity-deps.ts, and the callers above subscriptions.",
    ),
    below(
      "benefits-below-benefit-grants",
      "benefits",
      "benefit-grants",
      "A grant reads its benefit (findBenefit, BenefitRow, toBenefit); benefits never import benefit grants. A " +
        "benefit's change schedules its grants' jobs through the BenefitDependents benefits/handlers.ts hands in, and a " +
        "benefit's grants list is benefit-grants' own (listBenefitGrants).",
    ),
    below(
      "benefits-and-custom-fields-below-products",
      "benefits|custom-fields",
      "products",
      "A product shows its benefits and custom fields (toBenefit, toCustomField); benefits and custom fields never " +
        "import products. Deleting one detaches it from products through products/repository.ts's detachBenefit / " +
        "detachCustomField, handed in by benefits/handlers.ts and custom-fields/handlers.ts (BenefitDependents, " +
        "CustomFieldDependents).",
    ),
    below(
      "meters-below-events",
      "meters",
      "events",
      "Ingesting events evaluates meters and adds to their rollups (events/store.ts); meters never import events. " +
        "The meters own the usage ledger: every statement on events and event_names, the events API's and ingestion's " +
        "as well as the usage engine's (folds, rebuilds, attribution, credits, quantities), is meters/events-repository.ts's, " +
        "and a meter's filter is meters/filter.ts's; server/events/ is the API over them.",
    ),
    below(
      "meters-below-customer-meters",
      "meters",
      "customer-meters",
      "A customer meter shows a meter's usage (customer-meters reads meters' quantities and credits); meters never import " +
        "customer meters. The customer_meters rows are the usage engine's (folds, rebuilds and attribution insert them), " +
        "so their statements are meters/customer-meters-repository.ts's; server/customer-meters/ is the API over them.",
    ),
    below(
      "customers-below-customer-sessions",
      "customers",
      "customer-sessions",
      "A portal session is a customer's (customer-sessions reads customers/repository.ts); customers never import " +
        "customer sessions. Deleting a customer revokes their sessions through revokeCustomerSessions " +
        "(customer-sessions/repository.ts), handed in by customers/handlers.ts (CustomerDependents).",
    ),
    below(
      "customers-below-what-the-state-view-shows",
      "customers",
      "customer-meters|subscriptions|benefit-grants",
      "Customer meters, subscriptions and benefit grants are a customer's (they read customers/repository.ts and " +
        "customers/models.ts); customers never import them. The state view, which shows all of them, is " +
        "subscriptions/customer-state.ts's (readCustomerState), handed to customers' services by customers/handlers.ts " +
        "(CustomerDependents, with liveSubscriptionOf for the active filter) and to benefit grant jobs by " +
        "workflows/activity-deps.ts (GrantJobDependents).",
    ),
    below(
      "customers-below-meters",
      "customers",
      "meters",
      "Meters read which events are a customer's through customers/repository.ts (externalIdsOf, idsWithExternalIds); " +
        "customers never import meters. A customer's new external id makes its events theirs through " +
        "attributeExternalEvents (meters/rollups.ts), handed in by customers/handlers.ts (CustomerDependents).",
    ),
    below(
      "customer-meters-below-subscriptions",
      "customer-meters",
      "subscriptions",
      "Subscriptions show their meters and the state view (subscriptions/customer-state.ts) a customer's meters " +
        "(stateMeters); customer meters never import subscriptions.",
    ),
    below(
      "customers-below-members",
      "customers",
      "members",
      "A member is a customer's (members read customers/repository.ts); customers never import members. A new " +
        "customer's owner member and a deleted customer's members are members/service.ts's createOwnerMember and " +
        "deleteMembersOfCustomer, handed in by customers/handlers.ts (CustomerDependents).",
    ),
    below(
      "auth-below-oauth2",
      "auth",
      "oauth2",
      "The OAuth2 API (server/oauth2/) stands on better-auth (server/auth/: its instance, token prefixes, scopes); auth " +
        "never imports oauth2. Queries on better-auth's tables, its OAuth provider's included, are auth/repository.ts's.",
    ),
    below(
      "customer-sessions-below-auth",
      "customer-sessions",
      "auth",
      "Resolving a caller (auth/callers.ts) authenticates a portal session through customer-sessions/service.ts " +
        "(authenticateCustomer); customer sessions never import auth.",
    ),
    below(
      "disputes-between-checkouts-and-subscriptions",
      "orders|subscriptions|payments|benefit-grants|customers",
      "disputes",
      "The Stripe webhook and the sandbox's dispute card (checkouts/) open disputes, refunds ask whether one holds an " +
        "order's money, and a lost dispute revokes the order's subscription (subscriptions/changes.ts's " +
        "revokeInTransaction) or its benefits: disputes stand above what they read and revoke, which never import them.",
    ),
    below(
      "wallets-below-billing",
      "customers",
      "wallets",
      "A wallet is a customer's (wallets read customers/repository.ts); customers never import wallets.",
    ),
    below(
      "wallets-below-what-spends-them",
      "wallets",
      "orders|subscriptions|checkouts|customer-portal",
      "Renewal orders spend a wallet's balance (subscriptions/billing.ts holds and spends it); wallets never import " + "what spends them.",
    ),
    {
      name: "processors-are-a-port",
      severity: "error",
      comment:
        "Checkouts, billing, refunds, test clocks and the portal pay through server/processors/ (getProcessor, the " +
        "PaymentProcessor interface); processors import only server/kit and server/config.ts. A processor's callback " +
        "that settles a checkout (the Stripe webhook, the sandbox's 3-D Secure page) lives in server/checkouts/.",
      from: { path: "^server/processors/" },
      to: { path: "^server/", pathNot: "^server/(processors/|kit/|config\\.ts$)" },
    },
    {
      name: "customer-portal-is-a-front",
      severity: "error",
      comment:
        "The customer portal is a front over orders and subscriptions: it imports them, and " +
        "no domain (nor the worker) imports it back; only server/handlers.ts and server/http/pipeline.ts mount it. A shape both " +
        "need belongs to the lower domain (the public product is products/models.ts's toCustomerProduct).",
      from: { path: "^(server/[^/]+/|workflows/)", pathNot: "^server/(customer-portal/|http/pipeline\\.ts$)" },
      to: { path: "^server/customer-portal/" },
    },
    {
      name: "migrations-are-not-imported",
      severity: "error",
      comment:
        "Migrations may read a domain's defaults (organizations/models.ts) and tools; no domain imports a migration " +
        "(only server/kit/db.ts, which runs them through migrations/index.ts). A value both need lives in the domain.",
      from: { path: "^(server|workflows)/", pathNot: "^server/(migrations/|kit/db\\.ts$)" },
      to: { path: "^server/migrations/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|generated/client|admin|portal/dist|\\.cache)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
