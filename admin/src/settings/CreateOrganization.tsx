// A signed-in person creates an organization (POST /v1/organizations/ with the session: they become
// its owner), their first or another one, and the console acts for it.
import { useState } from "react";
import { Alert, Button, Card, CardContent, TextField, Typography } from "@mui/material";
import { Title, useDataProvider } from "react-admin";
import type { BorealisDataProvider } from "../dataProvider";
import { session } from "../authProvider/session";
import { forgetIdentity } from "../authProvider";

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);

export function CreateOrganization({ another = false }: { another?: boolean }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dataProvider = useDataProvider<BorealisDataProvider>();
  return (
    <Card sx={{ maxWidth: 520, mt: 2 }}>
      {another ? <Title title="New organization" /> : null}
      <CardContent>
        <Typography component="h1" variant="h5" gutterBottom>
          {another ? "Create another organization" : "Create your organization"}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {another
            ? "It has its own products, customers, payments and members. The console switches to it; the menu by its name switches back."
            : "Products, customers and payments belong to an organization. You can invite your team next."}
        </Typography>
        {error ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        ) : null}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            // once: a second submit would create a second organization
            if (busy) return;
            setBusy(true);
            dataProvider
              .createOrganization({ name, slug: slug || slugOf(name) })
              .then(({ data: org }) => session.setActive(org.id))
              .then(
                () => {
                  forgetIdentity();
                  window.location.assign("/dashboard/");
                },
                (err: Error) => {
                  setError(err.message);
                  setBusy(false);
                },
              );
          }}
        >
          <TextField id="org-name" label="Name" fullWidth margin="dense" value={name} onChange={(e) => setName(e.target.value)} required />
          <TextField
            id="org-slug"
            label="Slug"
            fullWidth
            margin="dense"
            value={slug || slugOf(name)}
            onChange={(e) => setSlug(e.target.value)}
            helperText="In your checkout and portal URLs"
            required
          />
          <Button type="submit" variant="contained" sx={{ mt: 1 }} disabled={busy}>
            {busy ? "Creating…" : "Create"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
