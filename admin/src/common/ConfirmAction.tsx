// A button that asks first, then calls the server and waits for its answer (pessimistic): used for
// every action that moves money or changes a state (archive, refund, cancel, revoke, redeliver).
import { useState, type ReactElement, type ReactNode } from "react";
import { Button, Confirm, useNotify, useRefresh } from "react-admin";

export function ConfirmAction({
  label,
  icon,
  title,
  content,
  run,
  success,
  onDone,
  color,
}: {
  label: string;
  icon?: ReactElement;
  title: string;
  content: ReactNode;
  run: () => Promise<unknown>;
  success: string;
  onDone?: (result: unknown) => void;
  color?: "primary" | "error" | "warning";
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  return (
    <>
      <Button label={label} onClick={() => setOpen(true)} disabled={busy} color={color}>
        {icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={title}
        content={content}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            const result = await run();
            notify(success, { type: "success" });
            onDone?.(result);
            refresh();
          } catch (err) {
            notify((err as Error).message, { type: "error" });
          } finally {
            setBusy(false);
            setOpen(false);
          }
        }}
      />
    </>
  );
}
