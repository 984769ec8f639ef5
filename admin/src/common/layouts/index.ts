// The frames every resource's screens share, so a resource folder keeps only its own columns,
// fields, forms and actions: the list (filters, sort, toolbar, CSV export, rows that open the
// record), the show toolbar, the id / date / metadata lines that end a show page, a related list
// inside a tab, and create / edit (redirect to the record, pessimistic edits, metadata as rows).
export { ResourceList } from "./ResourceList";
export { ShowActions } from "./ShowActions";
export { recordDetails } from "./recordDetails";
export { RelatedList } from "./RelatedList";
export { RecordCreate } from "./RecordCreate";
export { RecordEdit } from "./RecordEdit";
export { facts, type MobileRow } from "./mobileRow";
