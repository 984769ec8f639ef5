// A purchase's seats: who holds each, its status, since when, and its actions (resend a pending
// seat's invitation, revoke a live seat); a table, or a list of seats on a phone.
import { useTranslate } from "react-admin";
import {
  Box,
  Chip,
  List,
  ListItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from "@mui/material";
import type { CustomerSeat } from "../../api";
import { formatDateTime } from "../../common/format";
import { ResendInvitationButton } from "./ResendInvitationButton";
import { RevokeSeatButton } from "./RevokeSeatButton";

const COLORS = { pending: "warning", claimed: "success", revoked: "default" } as const;

function since(seat: CustomerSeat): string | null | undefined {
  if (seat.status === "claimed") return seat.claimed_at;
  if (seat.status === "revoked") return seat.revoked_at;
  return seat.modified_at ?? seat.created_at;
}

function Status({ seat }: { seat: CustomerSeat }) {
  const translate = useTranslate();
  return (
    <>
      <Chip size="small" color={COLORS[seat.status]} label={translate(`borealis.seats.status_${seat.status}`)} />
      {seat.status === "pending" && seat.invitation_token_expires_at ? (
        <Typography variant="caption" component="div" color="text.secondary">
          {translate("borealis.seats.invitation_expires", { date: formatDateTime(seat.invitation_token_expires_at) })}
        </Typography>
      ) : null}
    </>
  );
}

function Actions({ seat, onChange }: { seat: CustomerSeat; onChange: () => Promise<void> }) {
  return (
    <>
      {seat.status === "pending" ? <ResendInvitationButton seat={seat} onDone={onChange} /> : null}
      {seat.status !== "revoked" ? <RevokeSeatButton seat={seat} onDone={onChange} /> : null}
    </>
  );
}

export function SeatsTable({ seats, onChange }: { seats: CustomerSeat[]; onChange: () => Promise<void> }) {
  const translate = useTranslate();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  if (!seats.length) return <Typography variant="body2">{translate("borealis.seats.none")}</Typography>;
  if (narrow)
    return (
      <List aria-label={translate("borealis.seats.table")} disablePadding>
        {seats.map((seat) => (
          <ListItem key={seat.id} divider sx={{ display: "block", px: 0 }}>
            <Typography variant="body2">{seat.customer_email ?? seat.email ?? "—"}</Typography>
            <Status seat={seat} />
            <Typography variant="caption" component="div" color="text.secondary">
              {translate("borealis.seats.since")}: {formatDateTime(since(seat))}
            </Typography>
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
              <Actions seat={seat} onChange={onChange} />
            </Box>
          </ListItem>
        ))}
      </List>
    );
  return (
    <Box sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label={translate("borealis.seats.table")}>
        <TableHead>
          <TableRow>
            <TableCell>{translate("borealis.seats.holder")}</TableCell>
            <TableCell>{translate("borealis.seats.status")}</TableCell>
            <TableCell>{translate("borealis.seats.since")}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {seats.map((seat) => (
            <TableRow key={seat.id}>
              <TableCell>{seat.customer_email ?? seat.email ?? "—"}</TableCell>
              <TableCell>
                <Status seat={seat} />
              </TableCell>
              <TableCell>{formatDateTime(since(seat))}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Actions seat={seat} onChange={onChange} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
