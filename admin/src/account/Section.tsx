// One titled card of the account page.
import type { ReactNode } from "react";
import { Card, CardContent, Typography } from "@mui/material";

export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id}>
      <CardContent>
        <Typography component="h2" variant="h6" id={id} gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
