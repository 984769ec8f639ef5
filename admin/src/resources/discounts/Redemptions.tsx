import { useRecordContext } from "react-admin";
import type { Discount } from "../../api";

export function Redemptions() {
  const d = useRecordContext<Discount>();
  return d ? (
    <>
      {d.redemptions_count}
      {d.max_redemptions != null ? ` / ${d.max_redemptions}` : ""}
    </>
  ) : null;
}
