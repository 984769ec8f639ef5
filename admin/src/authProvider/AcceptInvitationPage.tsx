// /dashboard/accept-invitation/:id: where an invitation email's link lands. Signed in, the
// invitation is accepted and its organization becomes the active one; otherwise sign in first.
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Alert, Button, CircularProgress } from "@mui/material";
import { AuthCard } from "./AuthCard";
import { session } from "./session";
import { forgetIdentity } from "./index";

export function AcceptInvitationPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [state, setState] = useState<"working" | "signed-out" | "done" | string>("working");
  useEffect(() => {
    void (async () => {
      const s = await session.get().catch(() => null);
      if (!s) return setState("signed-out");
      try {
        await session.acceptInvitation(id ?? "");
        forgetIdentity();
        setState("done");
      } catch (err) {
        setState((err as Error).message);
      }
    })();
  }, [id]);
  return (
    <AuthCard title="Join an organization">
      {state === "working" ? <CircularProgress aria-label="Accepting the invitation" /> : null}
      {state === "signed-out" ? (
        <Alert severity="info">
          Sign in (or create an account with the invited email), then open the link again.{" "}
          <Button onClick={() => navigate("/login")}>Sign in</Button>
        </Alert>
      ) : null}
      {state === "done" ? (
        <Alert severity="success">
          You joined the organization.{" "}
          <Button
            onClick={() => {
              window.location.href = "/dashboard/";
            }}
          >
            Open the console
          </Button>
        </Alert>
      ) : null}
      {!["working", "signed-out", "done"].includes(state) ? <Alert severity="error">{state}</Alert> : null}
    </AuthCard>
  );
}
