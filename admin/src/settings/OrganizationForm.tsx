// A settings page's form over the signed-in organization: loaded once, saved with PATCH
// /v1/organizations/{id} (the body the page makes of the form's values), a 422 shown on its fields.
import { useEffect, useState, type ReactNode } from "react";
import { SaveButton, SimpleForm, Title, Toolbar, useDataProvider, useNotify } from "react-admin";
import { Alert, Card, CardContent, Typography } from "@mui/material";
import type { Organization } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { submissionErrors } from "../common/submit";

export function OrganizationForm(props: {
  title: string;
  heading: string;
  savedMessage: string;
  body: (values: Record<string, unknown>) => Record<string, unknown>;
  children: ReactNode;
  /** What the page shows under the form, once the organization is loaded. */
  after?: (org: Organization) => ReactNode;
}) {
  const notify = useNotify();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [org, setOrg] = useState<Organization | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    dataProvider.getOrganization().then(
      ({ data }) => setOrg(data),
      (e: Error) => setError(e.message),
    );
  }, [dataProvider]);
  return (
    <>
      <Card sx={{ mt: 2 }}>
        <Title title={props.title} />
        <CardContent>
          <Typography component="h1" variant="h5" gutterBottom>
            {props.heading}
          </Typography>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {org ? (
            <SimpleForm
              record={org}
              toolbar={
                <Toolbar>
                  <SaveButton />
                </Toolbar>
              }
              onSubmit={async (values: Record<string, unknown>) => {
                try {
                  setOrg((await dataProvider.updateOrganization(org.id, props.body(values))).data);
                  notify(props.savedMessage, { type: "success" });
                } catch (err) {
                  return submissionErrors(err, notify);
                }
              }}
            >
              {props.children}
            </SimpleForm>
          ) : null}
        </CardContent>
      </Card>
      {org && props.after ? props.after(org) : null}
    </>
  );
}
