// The email templates package: message kinds and their props, and renderEmail.
export * from "./messages.js";
export { renderEmail } from "./render.js";
export { sampleMessage, SAMPLE_BRAND } from "./samples.js";
export { formatMoney } from "./format.js";
