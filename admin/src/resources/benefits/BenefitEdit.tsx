import type { Benefit } from "../../api";
import { RecordEdit } from "../../common/layouts";
import { body, type Values } from "./BenefitForm";
import { EditTitleGuard } from "./EditTitleGuard";

export function BenefitEdit() {
  return (
    <RecordEdit<Benefit, Values>
      transform={body}
      load={(b) => ({ download_files: b.type === "downloadables" ? b.properties.files.map((id) => ({ id })) : [] })}
    >
      <EditTitleGuard />
    </RecordEdit>
  );
}
