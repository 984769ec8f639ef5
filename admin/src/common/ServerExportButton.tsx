// The server's own CSV export of a resource (customers, orders, subscriptions): every record of
// the organization with Polar's columns, as the API's export operation writes it, downloaded as a
// file. The toolbar's Export button writes what the list's filter shows instead.
import { useState } from "react";
import { Button, useNotify } from "react-admin";
import DownloadIcon from "@mui/icons-material/Download";
import { call } from "../dataProvider/request";
import { download } from "./csv";

export function ServerExportButton({ path, name }: { path: string; name: string }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      label="Export all (CSV)"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          // the viewer's time zone for the datetimes
          const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          const text = await call<string>("GET", path, { query: { timezone }, parseAs: "text" });
          download(`${name}-${new Date().toISOString().slice(0, 10)}.csv`, text);
        } catch (err) {
          notify(err instanceof Error ? err.message : String(err), { type: "error" });
        } finally {
          setBusy(false);
        }
      }}
    >
      <DownloadIcon />
    </Button>
  );
}
