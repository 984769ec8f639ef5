// The seats' typed errors (the contract's SeatError and SeatForbidden bodies), named as Polar's.
import { ApiError } from "../kit/errors.js";

export class SeatNotAvailable extends ApiError {
  constructor(detail = "No available seats.") {
    super(400, "SeatNotAvailable", detail);
  }
}

export class SeatAlreadyAssigned extends ApiError {
  constructor(email: string) {
    super(400, "SeatAlreadyAssigned", `Seat already assigned to customer ${email}.`);
  }
}

export class SeatNotPending extends ApiError {
  constructor() {
    super(400, "SeatNotPending", "Seat is not in pending status.");
  }
}

export class InvalidSeatAssignmentRequest extends ApiError {
  constructor(detail = "Exactly one of email, external_customer_id, customer_id, member_id or external_member_id must be provided.") {
    super(400, "InvalidSeatAssignmentRequest", detail);
  }
}

export class InvalidInvitationToken extends ApiError {
  constructor() {
    super(400, "InvalidInvitationToken", "Invalid or expired invitation token.");
  }
}

export class MemberEmailMismatch extends ApiError {
  constructor(externalMemberId: string, email: string) {
    super(
      400,
      "MemberEmailMismatch",
      `Member with external_member_id '${externalMemberId}' exists but has a different email than '${email}'.`,
    );
  }
}

export class FeatureNotEnabled extends ApiError {
  constructor() {
    super(403, "FeatureNotEnabled", "Seat-based pricing is not enabled for this organization.");
  }
}
