// `make coverage`: each official client's operations that are built (all of 0.34.17's 128; those of
// 0.49.0 not built yet named), matching the handler map; the extensions listed apart.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { handlers } from "../../server/handlers.js";
import { isExtension } from "../../codegen/lib/extensions.js";

describe("coverage", () => {
  it("prints each client's operations built, matching the handler map", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "codegen/coverage.ts"], { encoding: "utf8" });
    expect(out.split("\n")[0]).toBe("@polar-sh/sdk 0.34.17: 128 of 128 operations built");
    const newest = /^@polar-sh\/sdk 0\.49\.0: (\d+) of (\d+) operations built$/m.exec(out);
    expect(newest?.[2]).toBe("185");
    const missing = [...out.matchAll(/^ {2}not built {2}(\S+)$/gm)].map((m) => m[1]);
    expect(Number(newest?.[1]) + missing.length).toBe(185);
    // A served operation is never named as missing; one named is not in the handler map.
    const built = new Set(Object.keys(handlers));
    for (const id of missing) expect(built.has(id), id).toBe(false);
    expect(missing).not.toContain("subscriptions:create");
    const ours = (Object.keys(operations) as (keyof typeof operations)[]).filter((id) => isExtension(operations[id])).sort();
    expect(ours).toContain("test-clocks:advance");
    expect(out).toContain(`Borealis extensions (${ours.length} of ${ours.length} built):\n  ${ours[0]}\n`);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).sort());
  });
});
