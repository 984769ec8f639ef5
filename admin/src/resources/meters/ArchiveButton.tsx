import { useDataProvider, useRecordContext } from "react-admin";
import type { Meter } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";

export function ArchiveButton() {
  const m = useRecordContext<Meter>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  if (!m) return null;
  const archive = !m.archived_at;
  return (
    <ConfirmAction
      label={archive ? "Archive" : "Unarchive"}
      title={`${archive ? "Archive" : "Unarchive"} ${m.name}?`}
      content={archive ? "It stops counting new events." : "It counts events again."}
      run={() => dataProvider.setMeterArchived(m.id, archive)}
      success={archive ? "Meter archived" : "Meter unarchived"}
    />
  );
}
