// Inputs that send a change when the buyer is done with a field (blur, Enter), not on every key:
// one update call per change. The draft follows the server's value whenever that value changes.
import { useEffect, useRef, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { aria, Field } from "./components.js";

type Common = { value: string | null | undefined; onCommit: (value: string) => void };

function useDraft(value: string | null | undefined) {
  const [draft, setDraft] = useState(value ?? "");
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setDraft(value ?? "");
    }
  }, [value]);
  return [draft, setDraft] as const;
}

export function CommitInput({ value, onCommit, ...rest }: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  const [draft, setDraft] = useDraft(value);
  const commit = () => {
    if (draft !== (value ?? "")) onCommit(draft);
  };
  return (
    <input
      {...rest}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          commit();
        }
      }}
    />
  );
}

export function CommitTextarea({
  value,
  onCommit,
  ...rest
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange">) {
  const [draft, setDraft] = useDraft(value);
  return (
    <textarea
      {...rest}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => {
        if (draft !== (value ?? "")) onCommit(draft);
      }}
    />
  );
}

/**
 * A value shown at once when the user changes it, and replaced by the server's whenever that
 * changes (a checkbox or a select must not snap back while its update is on the way).
 */
export function useOptimistic<T>(server: T): [T, (value: T) => void] {
  const [local, setLocal] = useState(server);
  const last = useRef(server);
  useEffect(() => {
    if (server !== last.current) {
      last.current = server;
      setLocal(server);
    }
  }, [server]);
  return [local, setLocal];
}

/** A labelled input that sends its value when the user leaves it; blank is sent as null. */
export function TextField(
  props: {
    label: ReactNode;
    error?: string;
    help?: ReactNode;
    value: string | null | undefined;
    onCommit: (value: string | null) => void;
  } & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">,
) {
  const { label, error, help, value, onCommit, ...input } = props;
  return (
    <Field label={label} required={input.required} error={error} help={help}>
      {(ids) => <CommitInput {...input} {...aria(ids)} value={value} onCommit={(v) => onCommit(v.trim() === "" ? null : v.trim())} />}
    </Field>
  );
}
