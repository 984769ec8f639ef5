// The signed-in person as better-auth has them now (the cookie cache skipped), for the account page.
import { useCallback, useEffect, useState } from "react";
import { session, type Session } from "../authProvider/session";

export function useMe() {
  const [current, setCurrent] = useState<Session | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(
    () =>
      session.fresh().then(
        (s) => setCurrent(s),
        (e: Error) => setError(e.message),
      ),
    [],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  return { me: current?.user ?? null, sessionId: current?.session.id ?? null, error, reload };
}
