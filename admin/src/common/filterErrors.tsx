// A list's 422 on its own query parameters, shown on the filter input it concerns: the server's
// message under the field (react-admin marks it invalid), not only as a notification.
import { useEffect, type ReactNode } from "react";
import { Box } from "@mui/material";
import { useFormContext } from "react-hook-form";
import { DateTimeInput, TextInput, useListContext, type DateTimeInputProps, type TextInputProps } from "react-admin";
import { fieldPath, type ValidationIssue } from "../dataProvider/errors";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function issuesOf(error: unknown): ValidationIssue[] {
  if (!isRecord(error) || !isRecord(error.body) || !Array.isArray(error.body.detail)) return [];
  return error.body.detail.filter((i): i is ValidationIssue => isRecord(i) && Array.isArray(i.loc) && typeof i.msg === "string");
}

/** The messages of the issues about query parameter `param` (a nested one keeps the rest of its path). */
export function queryIssue(error: unknown, param: string): string | undefined {
  const messages = issuesOf(error)
    .filter((i) => i.loc[0] === "query" && fieldPath(i)[0] === param)
    .map((i) => {
      const rest = fieldPath(i).slice(1);
      return rest.length ? `${rest.join(".")}: ${i.msg}` : i.msg;
    });
  return messages.length ? messages.join("; ") : undefined;
}

/** Puts the list's server error about `source` on that filter field (and takes it off when gone). */
export function useServerFilterError(source: string): void {
  const { error } = useListContext();
  // the form's methods are stable; the context object around them is new at every render
  const { setError, clearErrors, getFieldState } = useFormContext();
  const message = queryIssue(error, source);
  useEffect(() => {
    const current = getFieldState(source).error;
    if (message) {
      if (current?.message !== message) setError(source, { type: "server", message });
    } else if (current?.type === "server") {
      clearErrors(source);
    }
  }, [message, source, setError, clearErrors, getFieldState]);
}

/** react-admin's filter form hides helper texts: an error's stays visible. */
export function ShowsErrors({ children }: { children: ReactNode }) {
  return <Box sx={{ "& .MuiFormHelperText-root.Mui-error": { display: "block", maxWidth: 360 } }}>{children}</Box>;
}

/** A text filter whose server errors show under it. */
export function CheckedTextFilter(props: TextInputProps & { source: string }) {
  useServerFilterError(props.source);
  return (
    <ShowsErrors>
      <TextInput {...props} />
    </ShowsErrors>
  );
}

/** A date-time filter holding an ISO instant (the contract's date-time), with its server errors under it. */
export function DateTimeFilter(props: DateTimeInputProps & { source: string }) {
  useServerFilterError(props.source);
  return (
    <ShowsErrors>
      <DateTimeInput parse={(v: string) => (v ? new Date(v).toISOString() : null)} {...props} />
    </ShowsErrors>
  );
}
