// /dashboard/accept-invitation/:id: where an invitation email's link lands. It names the
// organization. Signed in with the invited email, the invitation is accepted and the organization
// becomes the active one; signed out, the invitee creates an account here (the verification link
// brings them back to join) or signs in and comes back.
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Alert, Button, CircularProgress, Typography } from "@mui/material";
import { AuthCard } from "./AuthCard";
import { session, type InvitationPreview, type Session } from "./session";
import { InvitationSignUp } from "./InvitationSignUp";
import { forgetIdentity } from "./index";

type State =
  | { step: "loading" }
  | { step: "missing"; message: string }
  | { step: "closed"; invitation: InvitationPreview }
  | { step: "signed-out"; invitation: InvitationPreview }
  | { step: "other-user"; invitation: InvitationPreview; email: string }
  | { step: "joined"; invitation: InvitationPreview }
  | { step: "failed"; invitation: InvitationPreview; message: string };

const CLOSED: Record<string, string> = {
  accepted: "This invitation has been accepted already.",
  rejected: "This invitation was declined.",
  canceled: "This invitation was withdrawn. Ask for a new one.",
  expired: "This invitation has expired. Ask for a new one.",
};

export function AcceptInvitationPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ step: "loading" });
  useEffect(() => {
    void (async () => {
      let invitation: InvitationPreview;
      try {
        invitation = await session.previewInvitation(id);
      } catch (err) {
        return setState({ step: "missing", message: (err as Error).message });
      }
      if (invitation.status !== "pending") return setState({ step: "closed", invitation });
      const s: Session | null = await session.get().catch(() => null);
      if (!s) return setState({ step: "signed-out", invitation });
      if (s.user.email.toLowerCase() !== invitation.email.toLowerCase())
        return setState({ step: "other-user", invitation, email: s.user.email });
      try {
        await session.acceptInvitation(id);
        forgetIdentity();
        setState({ step: "joined", invitation });
      } catch (err) {
        setState({ step: "failed", invitation, message: (err as Error).message });
      }
    })();
  }, [id]);

  const signIn = () => navigate("/login", { state: { nextPathname: `/accept-invitation/${id}` } });
  const title = state.step === "loading" || state.step === "missing" ? "Join an organization" : `Join ${state.invitation.organizationName}`;
  return (
    <AuthCard title={title}>
      {state.step === "loading" ? <CircularProgress aria-label="Opening the invitation" /> : null}
      {state.step === "missing" ? (
        <Alert severity="error">This invitation does not exist (its link may be incomplete). Ask for a new one.</Alert>
      ) : null}
      {state.step === "closed" ? <Alert severity="info">{CLOSED[state.invitation.status]}</Alert> : null}
      {state.step === "signed-out" ? (
        <>
          <Typography variant="body2" sx={{ mb: 2 }}>
            You are invited to <strong>{state.invitation.organizationName}</strong> on Borealis as {state.invitation.email}.
          </Typography>
          {state.invitation.hasAccount ? (
            <Button variant="contained" fullWidth onClick={signIn}>
              Sign in to join
            </Button>
          ) : (
            <>
              <InvitationSignUp id={id} invitation={state.invitation} />
              <Button sx={{ mt: 1 }} onClick={signIn}>
                I have an account: sign in
              </Button>
            </>
          )}
        </>
      ) : null}
      {state.step === "other-user" ? (
        <Alert severity="warning">
          This invitation is for {state.invitation.email}, and you are signed in as {state.email}.{" "}
          <Button
            onClick={() =>
              void session.signOut().then(() => {
                forgetIdentity();
                window.location.reload();
              })
            }
          >
            Sign out
          </Button>
        </Alert>
      ) : null}
      {state.step === "joined" ? (
        <Alert severity="success" role="status">
          You joined {state.invitation.organizationName}.{" "}
          <Button
            onClick={() => {
              window.location.href = "/dashboard/";
            }}
          >
            Open the console
          </Button>
        </Alert>
      ) : null}
      {state.step === "failed" ? <Alert severity="error">{state.message}</Alert> : null}
    </AuthCard>
  );
}
