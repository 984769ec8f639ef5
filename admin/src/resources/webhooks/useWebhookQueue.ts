import { useCallback, useEffect, useState } from "react";
import { useDataProvider } from "react-admin";
import type { WebhookQueue } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

/** The endpoint's queue through the data provider, read again by `reload` (after a skip or a retry). */
export function useWebhookQueue(endpointId: string | undefined) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [data, setData] = useState<WebhookQueue | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!endpointId) return;
    let live = true;
    dataProvider.getWebhookQueue(endpointId).then(
      ({ data: q }) => {
        if (!live) return;
        setData(q);
        setError(null);
      },
      (e: Error) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [dataProvider, endpointId, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}
