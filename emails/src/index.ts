// The email templates package: message kinds and their props, and renderEmail.
export * from "./messages.js";
export { renderEmail } from "./render.js";
