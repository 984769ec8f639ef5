import type { Benefit } from "../../api";
import { humanize } from "../../common/format";

/** What a benefit of each type gives, in words. */
export function benefitSummary(b: Benefit): string {
  switch (b.type) {
    case "custom":
      return b.properties.note ? `Note: ${b.properties.note}` : "A private note";
    case "license_keys": {
      const p = b.properties;
      const parts = [
        p.prefix ? `prefix ${p.prefix}` : null,
        p.expires ? `expires after ${p.expires.ttl} ${p.expires.timeframe}(s)` : "never expires",
        p.activations ? `${p.activations.limit} activations` : null,
        p.limit_usage != null ? `usage limit ${p.limit_usage}` : null,
      ];
      return `License keys: ${parts.filter(Boolean).join(", ")}`;
    }
    case "downloadables":
      return `${b.properties.files.length} file(s) to download`;
    case "github_repository":
      return `${humanize(b.properties.permission)} access to ${b.properties.repository_owner}/${b.properties.repository_name}`;
    case "discord":
      return `Discord role ${b.properties.role_id} in server ${b.properties.guild_id}`;
    case "meter_credit":
      return `${b.properties.units} units of credit each period${b.properties.rollover ? ", rolled over" : ""}`;
    default:
      return "";
  }
}
