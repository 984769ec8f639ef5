// Metadata rules shared by every entity: at most 50 pairs, keys up to 40 characters, string
// values up to 500 characters; values are strings, integers, numbers or booleans.
import { invalid } from "./errors.js";

export type Metadata = Record<string, string | number | boolean>;

export function checkMetadata(metadata: unknown, loc: (string | number)[] = ["body", "metadata"]): Metadata {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== "object" || Array.isArray(metadata)) throw invalid(loc, "Input should be a valid dictionary", "dict_type");
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > 50) throw invalid(loc, "Dictionary should have at most 50 items", "too_long");
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > 40) throw invalid([...loc, key], "Keys must have 1 to 40 characters", "string_too_long");
    if (typeof value === "string" && value.length > 500)
      throw invalid([...loc, key], "String should have at most 500 characters", "string_too_long");
    if (!["string", "number", "boolean"].includes(typeof value))
      throw invalid([...loc, key], "Input should be a string, number or boolean", "union_type");
  }
  return metadata as Metadata;
}
