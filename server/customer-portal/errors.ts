// The portal's typed errors (the contract's error bodies).
import { ApiError } from "../kit/errors.js";

/** The customer has nothing at the processor yet for this operation to stand on (400, as 0.49.0 reads it). */
export class CustomerNotReady extends ApiError {
  constructor(detail = "Customer is not ready for this operation.") {
    super(400, "CustomerNotReady", detail);
  }
}
