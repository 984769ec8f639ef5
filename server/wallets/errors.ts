// Typed errors of wallets, each rendered as the `{error, detail}` body the contract declares for it.
import { ApiError } from "../kit/errors.js";

export class InsufficientWalletBalance extends ApiError {
  constructor(detail = "The wallet's balance is lower than the amount.") {
    super(400, "InsufficientWalletBalance", detail);
  }
}
