import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { session, type FullOrganization } from "../authProvider/session";
import { formatDateTime, humanize } from "../common/format";
import type { MemberAction } from "./memberRoles";

/** The organization's invitations; a manager can cancel a pending one. */
export function InvitationsTable(props: { invitations: FullOrganization["invitations"]; manager: boolean; act: MemberAction }) {
  const { invitations, manager, act } = props;
  return (
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
        {invitations.length ? (
          invitations.map((i) => (
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
  );
}
