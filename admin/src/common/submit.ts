// What a hand-made form's onSubmit returns when its call fails: a 422's field errors (react-admin
// shows each on its field), or nothing after notifying any other error by name and detail.
type Notify = (message: string, options?: { type?: "error" | "info" | "success" | "warning" }) => void;

export function submissionErrors(err: unknown, notify: Notify): Record<string, unknown> | undefined {
  const e = err as Error & { body?: { errors?: Record<string, unknown> } };
  if (e?.body?.errors) return e.body.errors;
  notify(e instanceof Error ? e.message : String(err), { type: "error" });
  return undefined;
}
