// Members and invitations of the active organization (better-auth's organization calls): invite by
// email with a role, cancel an invitation, change a member's role, remove a member. Owners and
// admins manage; better-auth enforces it.
import { useCallback, useEffect, useState } from "react";
import { Title, useGetIdentity, useNotify } from "react-admin";
import {
  Alert,
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
import { humanize } from "../common/format";
import { ROLES, type MemberAction } from "./memberRoles";
import { InviteForm } from "./InviteForm";
import { InvitationsTable } from "./InvitationsTable";

export function Members() {
  const notify = useNotify();
  const { data } = useGetIdentity();
  const me = data as Identity | undefined;
  const [org, setOrg] = useState<FullOrganization | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => session.fullOrganization().then(setOrg, (e: Error) => setError(e.message)), []);
  useEffect(() => {
    void load();
  }, [load]);
  const act: MemberAction = (fn, done) =>
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
            {manager ? <InviteForm myRole={me?.role} act={act} /> : null}
            <InvitationsTable invitations={org.invitations} manager={manager} act={act} />
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
