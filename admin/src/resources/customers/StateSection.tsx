import { type ReactNode } from "react";
import { Datagrid, ListContextProvider, useList } from "react-admin";
import { Box, Typography } from "@mui/material";

/** One section of the customer's state: a heading, then a table of its rows, or "None." */
export function StateSection<T extends { id: string }>({
  title,
  rows,
  rowClick,
  children,
}: {
  title: string;
  rows: T[];
  rowClick?: (id: string | number) => string;
  children: ReactNode;
}) {
  const list = useList({ data: rows, perPage: rows.length || 1 });
  return (
    <Box>
      <Typography variant="h6" component="h3" gutterBottom>
        {title}
      </Typography>
      <ListContextProvider value={list}>
        <Datagrid rowClick={rowClick} bulkActionButtons={false} empty={<Typography variant="body2">None.</Typography>}>
          {children}
        </Datagrid>
      </ListContextProvider>
    </Box>
  );
}
