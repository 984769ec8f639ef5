import { useEffect, useState } from "react";
import { useDataProvider } from "react-admin";
import type { Meter, MeterQuantities } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { TIME_ZONE, type Interval } from "./quantityWindow";

/** The meter's quantities in a window, through the data provider; a refusal is kept as the error. */
export function useMeterQuantities(meter: Meter | undefined, interval: Interval, startIso: string | null, endIso: string | null) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [data, setData] = useState<MeterQuantities | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    if (!meter || !startIso || !endIso) return;
    let live = true;
    setError(null);
    dataProvider.getMeterQuantities(meter.id, { start_timestamp: startIso, end_timestamp: endIso, interval, timezone: TIME_ZONE }).then(
      ({ data: q }) => live && setData(q),
      (e: Error) => {
        if (!live) return;
        setError(e);
        setData(null);
      },
    );
    return () => {
      live = false;
    };
  }, [dataProvider, meter, interval, startIso, endIso]);
  return { data, error };
}
