// The words of the screens outside react-admin's resource messages, under `borealis.<screen>`:
// a purchase's seats.
export const SCREEN_WORDS = {
  seats: {
    title: "Seats",
    summary: "%{available} of %{total} seats free",
    table: "Seats",
    holder: "Holder",
    status: "Status",
    since: "Since",
    none: "No seat is assigned yet.",
    status_pending: "Invited",
    status_claimed: "Claimed",
    status_revoked: "Revoked",
    assign_form: "Assign a seat",
    email: "Email",
    email_help: "They get an invitation to claim the seat",
    assign: "Assign seat",
    assigned: "Seat assigned: the invitation is on its way",
    revoke: "Revoke",
    revoke_title: "Revoke this seat?",
    revoke_content: "%{holder} loses the seat and the benefits it grants.",
    revoked: "Seat revoked",
    resend: "Resend invitation",
    resent: "Invitation sent again",
    invitation_expires: "invitation valid until %{date}",
  },
};
