// Fields every screen uses: money in the record's currency, dates with UTC on hover, enums as
// words, copyable ids and links.
export { MoneyField } from "./MoneyField";
export { DateTimeField } from "./DateTimeField";
export { EnumField } from "./EnumField";
export { CopyButton } from "./CopyButton";
export { IdField } from "./IdField";
export { CopyableTextField } from "./CopyableTextField";
export { MetadataField } from "./MetadataField";
