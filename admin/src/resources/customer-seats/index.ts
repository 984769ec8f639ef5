// A seat-based purchase's seats (/v1/customer-seats), shown on the subscription and order pages:
// no screen of their own, a section of their purchase's.
export { SeatsSection } from "./SeatsSection";
