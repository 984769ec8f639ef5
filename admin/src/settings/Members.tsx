// Members and invitations of the active organization (better-auth's organization calls): invite by
// email with a role, cancel an invitation, change a member's role, remove a member. Owners and
// admins manage; better-auth enforces it.
import { useCallback, useEffect, useState } from "react";
import { Title, useGetIdentity, useNotify } from "react-admin";
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { session, type FullOrganization } from "../authProvider/session";
import type { Identity } from "../authProvider";
import { formatDateTime, humanize } from "../common/format";

const ROLES = ["member", "admin", "owner"];

export function Members() {
  const notify = useNotify();
  const { data } = useGetIdentity();
  const me = data as Identity | undefined;
  const [org, setOrg] = useState<FullOrganization | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const load = useCallback(() => session.fullOrganization().then(setOrg, (e: Error) => setError(e.message)), []);
  useEffect(() => {
    void load();
  }, [load]);
  const act = (fn: () => Promise<unknown>, done: string) =>
    fn().then(
      () => {
        notify(done, { type: "success" });
        return load();
      },
      (e: Error) => notify(e.message, { type: "error" }),
    );
  if (me?.viaToken)
    return (
      <Card sx={{ mt: 2 }}>
        <Title title="Members" />
        <CardContent>
          <Alert severity="info">
            Members are managed by a signed-in owner or admin (an access token acts for the organization, not for a person).
          </Alert>
        </CardContent>
      </Card>
    );
  const manager = me?.role === "owner" || me?.role === "admin";
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Members" />
      <CardContent>
        <Typography component="h1" variant="h5" gutterBottom>
          Members
        </Typography>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {org ? (
          <>
            <Table size="small" aria-label="Members">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Email</TableCell>
                  <TableCell>Role</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {org.members.map((m) => (
                  <TableRow key={m.id}>
                    <TableCell>{m.user.name}</TableCell>
                    <TableCell>{m.user.email}</TableCell>
                    <TableCell>
                      {manager && m.userId !== me?.id ? (
                        <TextField
                          select
                          size="small"
                          label="Role"
                          value={m.role}
                          onChange={(e) => void act(() => session.updateRole(m.id, e.target.value), "Role changed")}
                        >
                          {ROLES.map((r) => (
                            <MenuItem key={r} value={r}>
                              {humanize(r)}
                            </MenuItem>
                          ))}
                        </TextField>
                      ) : (
                        humanize(m.role)
                      )}
                    </TableCell>
                    <TableCell align="right">
                      {manager && m.userId !== me?.id ? (
                        <Button color="error" size="small" onClick={() => void act(() => session.removeMember(m.id), "Member removed")}>
                          Remove
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Typography component="h2" variant="h6" sx={{ mt: 3 }}>
              Invitations
            </Typography>
            {manager ? (
              <Box
                component="form"
                sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", my: 1 }}
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => session.invite(email, role), `Invitation sent to ${email}`).then(() => setEmail(""));
                }}
              >
                <TextField size="small" label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
                <TextField size="small" select label="Role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 120 }}>
                  {ROLES.filter((r) => r !== "owner" || me?.role === "owner").map((r) => (
                    <MenuItem key={r} value={r}>
                      {humanize(r)}
                    </MenuItem>
                  ))}
                </TextField>
                <Button type="submit" variant="contained">
                  Invite
                </Button>
              </Box>
            ) : null}
            <Table size="small" aria-label="Invitations">
              <TableHead>
                <TableRow>
                  <TableCell>Email</TableCell>
                  <TableCell>Role</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Expires</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {org.invitations.length ? (
                  org.invitations.map((i) => (
                    <TableRow key={i.id}>
                      <TableCell>{i.email}</TableCell>
                      <TableCell>{humanize(i.role)}</TableCell>
                      <TableCell>{humanize(i.status)}</TableCell>
                      <TableCell>{formatDateTime(i.expiresAt)}</TableCell>
                      <TableCell align="right">
                        {manager && i.status === "pending" ? (
                          <Button size="small" onClick={() => void act(() => session.cancelInvitation(i.id), "Invitation canceled")}>
                            Cancel
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  ))
                ) : (
                  <TableRow>
                    <TableCell colSpan={5}>No invitations.</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
