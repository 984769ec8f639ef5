// Operations of our own that Polar's API does not have (tagged with one of these tags in
// openapi/): not counted against the official client's 128, listed apart by `make coverage`.
export const EXTENSION_TAGS: readonly string[] = ["test-clocks", "customer-portal-extensions"];

export const isExtension = (op: { tag: string }) => EXTENSION_TAGS.includes(op.tag);
