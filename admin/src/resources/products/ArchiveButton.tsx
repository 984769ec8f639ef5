import { useDataProvider, useRecordContext } from "react-admin";
import ArchiveIcon from "@mui/icons-material/Archive";
import UnarchiveIcon from "@mui/icons-material/Unarchive";
import type { Product } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";

export function ArchiveButton() {
  const record = useRecordContext<Product>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  if (!record) return null;
  const archive = !record.is_archived;
  return (
    <ConfirmAction
      label={archive ? "Archive" : "Unarchive"}
      icon={archive ? <ArchiveIcon /> : <UnarchiveIcon />}
      title={archive ? `Archive ${record.name}?` : `Unarchive ${record.name}?`}
      content={archive ? "It can no longer be bought; existing subscriptions go on." : "It can be bought again."}
      run={() => dataProvider.setProductArchived(record.id, archive)}
      success={archive ? "Product archived" : "Product unarchived"}
    />
  );
}
