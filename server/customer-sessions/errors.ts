// Errors of the portal sign-in with a body beyond name and detail.
import { ApiError } from "../kit/errors.js";

export interface CustomerOption {
  id: string;
  name: string | null;
}

/** 409: the email is a member of several customers; the request names one by `customer_id` (Polar's body). */
export class CustomerSelectionRequired extends ApiError {
  constructor(readonly customers: CustomerOption[]) {
    super(409, "customer_selection_required", "Multiple customers found for this email. Please select one.");
  }
  override body(): unknown {
    return { error: this.error, detail: this.detail, customers: this.customers };
  }
}
