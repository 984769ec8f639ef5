// Typed errors of disputes, each rendered as the `{error, detail}` body the contract declares for it.
import { ApiError } from "../kit/errors.js";

export class DisputeNotOpenError extends ApiError {
  constructor(detail = "The dispute is not awaiting a response.") {
    super(409, "DisputeNotOpenError", detail);
  }
}
