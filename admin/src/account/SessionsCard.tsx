// The devices signed in to this account (better-auth sessions): when and from where, and a way to
// sign any other one out.
import { useCallback, useEffect, useState } from "react";
import { useNotify } from "react-admin";
import { visuallyHidden } from "@mui/utils";
import { Alert, Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { session, type DeviceSession } from "../authProvider/session";
import { formatDateTime } from "../common/format";
import { Section } from "./Section";

/** "Chrome on Linux" from a user agent, well enough to recognise a device. */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : userAgent.split(/[\s/]/)[0];
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}

export function SessionsCard({ currentId }: { currentId: string | null }) {
  const notify = useNotify();
  const [rows, setRows] = useState<DeviceSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    () =>
      session.listSessions().then(
        (list) => setRows([...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))),
        (e: Error) => setError(e.message),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const revoke = (fn: () => Promise<unknown>, done: string) =>
    fn().then(
      () => {
        notify(done, { type: "success" });
        return load();
      },
      (e: Error) => notify(e.message, { type: "error" }),
    );
  const others = (rows ?? []).filter((r) => r.id !== currentId);
  return (
    <Section title="Signed-in devices" id="account-sessions">
      {error ? <Alert severity="error">{error}</Alert> : null}
      {rows ? (
        <Table size="small" aria-labelledby="account-sessions">
          <TableHead>
            <TableRow>
              <TableCell>Device</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>Address</TableCell>
              <TableCell>Last active</TableCell>
              <TableCell align="right">
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id}>
                <TableCell>
                  {deviceName(r.userAgent)}
                  {r.id === currentId ? <Chip size="small" label="This device" sx={{ ml: 1 }} /> : null}
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{r.ipAddress ?? "—"}</TableCell>
                <TableCell>{formatDateTime(r.updatedAt)}</TableCell>
                <TableCell align="right">
                  {r.id === currentId ? null : (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Sign out ${deviceName(r.userAgent)}, last active ${formatDateTime(r.updatedAt)}`}
                      onClick={() => void revoke(() => session.revokeSession(r.token), "That device is signed out.")}
                    >
                      Sign out
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {others.length ? (
        <Button
          variant="outlined"
          color="error"
          sx={{ mt: 2 }}
          onClick={() => void revoke(() => session.revokeOtherSessions(), "Your other devices are signed out.")}
        >
          Sign out all other devices
        </Button>
      ) : null}
    </Section>
  );
}
