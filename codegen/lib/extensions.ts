// Operations the official client (@polar-sh/sdk@0.34.17) does not have, tagged with one of these
// tags in openapi/: our own (test clocks, webhook replays, the portal's additions, the tax report, the emails) and Polar's that
// came after that client (organization access tokens, team customers' members). Not counted against the client's 128,
// listed apart by `make coverage`.
export const EXTENSION_TAGS: readonly string[] = [
  "test-clocks",
  "webhook-replays",
  "webhook-queue",
  "organization-access-tokens",
  "customer-portal-extensions",
  "tax",
  "emails",
  "members",
  "wallets",
  "customer-seats",
  "oauth2-clients",
];

export const isExtension = (op: { tag: string }) => EXTENSION_TAGS.includes(op.tag);
