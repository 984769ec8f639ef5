// What the tax calculation refuses, with a code its callers map to the contract's error bodies.

export type TaxErrorCode = "invalid_input" | "location_incomplete" | "no_rate" | "wrong_provider";

export class TaxError extends Error {
  constructor(
    readonly code: TaxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TaxError";
  }
}
