// A purchase's seats, loaded through the data provider and reloaded after each change; `hidden`
// when the purchase has no seats or the organization has seat-based pricing off.
import { useCallback, useEffect, useState } from "react";
import { useDataProvider } from "react-admin";
import type { SeatsList } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import type { SeatPurchase } from "../../dataProvider/seats";

export interface SeatsState {
  seats: SeatsList | null;
  error: string | null;
  hidden: boolean;
  reload: () => Promise<void>;
}

const featureOff = (err: unknown) => (err as { status?: number }).status === 403;

export function useSeats(purchase: SeatPurchase | null): SeatsState {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [seats, setSeats] = useState<SeatsList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [off, setOff] = useState(false);
  const key = purchase ? JSON.stringify(purchase) : null;
  const reload = useCallback(async () => {
    if (!key) return;
    try {
      // Asked only where the organization sells seats: elsewhere the list is refused (403).
      const organization = (await dataProvider.getOrganization()).data;
      if (!organization?.feature_settings?.seat_based_pricing_enabled) return setOff(true);
      setSeats((await dataProvider.listSeats(JSON.parse(key) as SeatPurchase)).data);
      setError(null);
    } catch (err) {
      if (featureOff(err)) setOff(true);
      else setError((err as Error).message);
    }
  }, [dataProvider, key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { seats, error, hidden: off || !key || (seats !== null && seats.total_seats === 0), reload };
}
