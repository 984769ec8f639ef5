// Each resource's names and the words its screens use: the list's title, what an empty list says
// and invites, the notices after a create, an edit or a delete. Read by en.ts into react-admin's
// `resources.<name>.*` keys.
export interface ResourceWords {
  /** one record, lower case after the first word: "checkout link" */
  one: string;
  many: string;
  /** what an empty list says, and what it invites (absent: the list fills by itself) */
  empty: string;
  invite?: string;
}

export const RESOURCE_WORDS: Record<string, ResourceWords> = {
  products: {
    one: "product",
    many: "products",
    empty: "No products yet",
    invite: "A product is what your customers buy: a price, once or recurring, and the benefits it grants.",
  },
  "checkout-links": {
    one: "checkout link",
    many: "checkout links",
    empty: "No checkout links yet",
    invite: "Share a link to a checkout for one or more of your products, on your site or anywhere else.",
  },
  discounts: {
    one: "discount",
    many: "discounts",
    empty: "No discounts yet",
    invite: "A discount lowers a price by an amount or a percentage, with or without a code.",
  },
  benefits: {
    one: "benefit",
    many: "benefits",
    empty: "No benefits yet",
    invite: "A benefit is what a purchase grants: license keys, files to download, a custom note, meter credits.",
  },
  "benefits-grants": { one: "benefit grant", many: "benefit grants", empty: "No benefit grants yet" },
  "license-keys": {
    one: "license key",
    many: "license keys",
    empty: "No license keys yet",
    invite: "Keys are issued when a customer buys a product with a license key benefit.",
  },
  "custom-fields": {
    one: "custom field",
    many: "custom fields",
    empty: "No custom fields yet",
    invite: "Ask buyers for more at checkout: a company name, a date, a choice.",
  },
  meters: {
    one: "meter",
    many: "meters",
    empty: "No meters yet",
    invite: "A meter counts your customers' usage from the events you send, to bill it.",
  },
  events: {
    one: "event",
    many: "events",
    empty: "No events yet",
    invite: "Send usage events through the API or the SDK; they appear here.",
  },
  "event-types": {
    one: "event type",
    many: "event types",
    empty: "No event types yet",
    invite: "Types appear with the first events you send.",
  },
  "customer-meters": {
    one: "customer meter",
    many: "customer meters",
    empty: "No customer meters yet",
    invite: "A customer's usage of a meter appears once they buy a metered product.",
  },
  customers: {
    one: "customer",
    many: "customers",
    empty: "No customers yet",
    invite: "Customers appear when they buy; you can also add one yourself.",
  },
  members: { one: "member", many: "members", empty: "No members yet" },
  orders: {
    one: "order",
    many: "orders",
    empty: "No orders yet",
    invite: "Orders appear when customers buy through a checkout, or when you draft one.",
  },
  subscriptions: {
    one: "subscription",
    many: "subscriptions",
    empty: "No subscriptions yet",
    invite: "Subscriptions start when customers buy a recurring product.",
  },
  checkouts: {
    one: "checkout",
    many: "checkouts",
    empty: "No checkouts yet",
    invite: "A checkout opens when a buyer follows a checkout link, or when you create one through the API.",
  },
  refunds: { one: "refund", many: "refunds", empty: "No refunds yet", invite: "Refund an order from its page." },
  payments: { one: "payment", many: "payments", empty: "No payments yet", invite: "Payments appear as customers pay." },
  disputes: { one: "dispute", many: "disputes", empty: "No disputes", invite: "When a buyer disputes a payment, it appears here." },
  "webhooks-endpoints": {
    one: "webhook",
    many: "webhooks",
    empty: "No webhooks yet",
    invite: "A webhook tells your server when something happens: an order paid, a subscription canceled.",
  },
  "oauth2-clients": {
    one: "OAuth2 application",
    many: "OAuth2 applications",
    empty: "No OAuth2 applications yet",
    invite: "An OAuth2 application signs people in with your organization's account and acts for them through the API.",
  },
  "webhooks-deliveries": { one: "webhook delivery", many: "webhook deliveries", empty: "No deliveries yet" },
  "test-clocks": {
    one: "test clock",
    many: "test clocks",
    empty: "No test clocks yet",
    invite: "A test clock moves a sandbox customer's time forward, to try renewals and trials.",
  },
};
