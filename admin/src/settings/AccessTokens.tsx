// Organization access tokens (GET/POST /v1/organization-access-tokens/, DELETE /{id}): a token for
// scripts and integrations, its secret shown once when it is made; revoked here.
import { useCallback, useEffect, useState } from "react";
import { Title, useDataProvider, useNotify } from "react-admin";
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
import type { OrganizationAccessToken } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { formatDateTime } from "../common/format";
import { SecretDialog } from "../resources/webhooks/SecretDialog";
import { ScopePicker } from "./ScopePicker";
import { ALL_SCOPES, scopesSummary } from "./scopes";

const EXPIRY: [string, string | null][] = [
  ["7 days", "P7D"],
  ["30 days", "P30D"],
  ["90 days", "P90D"],
  ["1 year", "P365D"],
  ["Never", null],
];

export function AccessTokens() {
  const notify = useNotify();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [tokens, setTokens] = useState<OrganizationAccessToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const [expiry, setExpiry] = useState("P30D");
  const [scopes, setScopes] = useState<string[]>([...ALL_SCOPES]);
  const [secret, setSecret] = useState<string | null>(null);
  const load = useCallback(
    () =>
      dataProvider.getAccessTokens().then(
        ({ data }) => setTokens(data),
        (e: Error) => setError(e.message),
      ),
    [dataProvider],
  );
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Access tokens" />
      <CardContent>
        <Typography component="h1" variant="h5" gutterBottom>
          Access tokens
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          For your scripts and integrations: send one as <code>Authorization: Bearer …</code> to the API.
        </Typography>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <Box
          component="form"
          sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", my: 2 }}
          onSubmit={(e) => {
            e.preventDefault();
            dataProvider.createAccessToken({ comment, expires_in: expiry === "never" ? null : expiry, scopes }).then(
              ({ data: r }) => {
                setSecret(r.token);
                setComment("");
                return load();
              },
              (err: Error) => notify(err.message, { type: "error" }),
            );
          }}
        >
          <TextField size="small" label="What it is for" value={comment} onChange={(e) => setComment(e.target.value)} required />
          <TextField size="small" select label="Expires" value={expiry} onChange={(e) => setExpiry(e.target.value)} sx={{ minWidth: 120 }}>
            {EXPIRY.map(([label, v]) => (
              <MenuItem key={label} value={v ?? "never"}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          <ScopePicker value={scopes} onChange={setScopes} />
          <Button type="submit" variant="contained" disabled={!scopes.length}>
            Create token
          </Button>
        </Box>
        <Table size="small" aria-label="Access tokens">
          <TableHead>
            <TableRow>
              <TableCell>For</TableCell>
              <TableCell>Scopes</TableCell>
              <TableCell>Expires</TableCell>
              <TableCell>Last used</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(tokens ?? []).map((t) => (
              <TableRow key={t.id}>
                <TableCell>{t.comment}</TableCell>
                <TableCell>{scopesSummary(t.scopes)}</TableCell>
                <TableCell>{t.expires_at ? formatDateTime(t.expires_at) : "Never"}</TableCell>
                <TableCell>{formatDateTime(t.last_used_at)}</TableCell>
                <TableCell align="right">
                  <Button
                    color="error"
                    size="small"
                    onClick={() =>
                      dataProvider.revokeAccessToken(t.id).then(
                        () => {
                          notify("Token revoked", { type: "success" });
                          return load();
                        },
                        (e: Error) => notify(e.message, { type: "error" }),
                      )
                    }
                  >
                    Revoke
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {tokens && !tokens.length ? (
              <TableRow>
                <TableCell colSpan={5}>No tokens yet.</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </CardContent>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} title="Your new access token" />
    </Card>
  );
}
