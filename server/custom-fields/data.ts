// custom_field_data against the selected product's attached custom fields: each value of the
// field's type within its bounds (text length, number/date ge/le, select options); required
// fields must be filled at confirm (a required checkbox must be checked). Unknown keys drop.
import type { CustomFieldRow } from "./models.js";
import { invalid } from "../kit/errors.js";

export type AttachedField = CustomFieldRow & { order: number; required: boolean };

const empty = (v: unknown) => v === undefined || v === null || v === "";

/** The custom_field_data a checkout, order and subscription carry. */
export type CustomFieldData = Record<string, string | number | boolean | null>;

function checkValue(field: AttachedField, value: unknown, loc: (string | number)[]): string | number | boolean {
  const p = field.properties as Record<string, unknown>;
  switch (field.type) {
    case "text": {
      if (typeof value !== "string") throw invalid(loc, "Input should be a valid string", "string_type", value);
      if (typeof p.min_length === "number" && value.length < p.min_length) {
        throw invalid(loc, `String should have at least ${p.min_length} characters`, "string_too_short", value);
      }
      if (typeof p.max_length === "number" && value.length > p.max_length) {
        throw invalid(loc, `String should have at most ${p.max_length} characters`, "string_too_long", value);
      }
      return value;
    }
    case "number": {
      if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(loc, "Input should be a valid integer", "int_type", value);
      if (typeof p.ge === "number" && value < p.ge)
        throw invalid(loc, `Input should be greater than or equal to ${p.ge}`, "greater_than_equal", value);
      if (typeof p.le === "number" && value > p.le)
        throw invalid(loc, `Input should be less than or equal to ${p.le}`, "less_than_equal", value);
      return value;
    }
    case "date": {
      const d = typeof value === "string" ? new Date(value) : null;
      if (typeof value !== "string" || !d || Number.isNaN(d.getTime()))
        throw invalid(loc, "Input should be a valid date", "date_parsing", value);
      // ge / le of a date field are Unix timestamps (seconds).
      const seconds = Math.floor(d.getTime() / 1000);
      if (typeof p.ge === "number" && seconds < p.ge) throw invalid(loc, "Date is too early.", "greater_than_equal", value);
      if (typeof p.le === "number" && seconds > p.le) throw invalid(loc, "Date is too late.", "less_than_equal", value);
      return value;
    }
    case "checkbox":
      if (typeof value !== "boolean") throw invalid(loc, "Input should be a valid boolean", "bool_type", value);
      return value;
    case "select": {
      const options = (p.options as { value: string }[] | undefined) ?? [];
      if (typeof value !== "string" || !options.some((o) => o.value === value)) {
        throw invalid(loc, `Input should be one of: ${options.map((o) => o.value).join(", ")}`, "literal_error", value);
      }
      return value;
    }
  }
}

/** Merges `input` into `current`, validating each given value; `requireAll` at confirm. */
export function checkCustomFieldData(
  fields: AttachedField[],
  current: Record<string, unknown>,
  input: Record<string, unknown> | null | undefined,
  opts: { requireAll: boolean; loc?: (string | number)[] },
): CustomFieldData {
  const loc = opts.loc ?? ["body", "custom_field_data"];
  const out: CustomFieldData = {};
  for (const field of fields) {
    const given = input !== undefined && input !== null && Object.prototype.hasOwnProperty.call(input, field.slug);
    const value = given ? input![field.slug] : current[field.slug];
    if (empty(value) || (field.type === "checkbox" && value === false && field.required)) {
      if (opts.requireAll && field.required) throw invalid([...loc, field.slug], "Field is required.", "missing");
      // Not empty here means an unchecked required checkbox.
      out[field.slug] = empty(value) ? null : false;
      continue;
    }
    out[field.slug] = checkValue(field, value, [...loc, field.slug]);
  }
  return out;
}
