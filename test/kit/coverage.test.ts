// `make coverage`: every operation of the contract is built, the extensions listed apart.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { handlers } from "../../server/handlers.js";
import { isExtension } from "../../codegen/lib/extensions.js";

describe("coverage", () => {
  it("prints N of 128 operations built, matching the handler map", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "codegen/coverage.ts"], { encoding: "utf8" });
    const ids = Object.keys(operations) as (keyof typeof operations)[];
    const theirs = ids.filter((id) => !isExtension(operations[id]));
    const total = theirs.length;
    expect(total).toBe(128);
    expect(out.split("\n")[0]).toBe(`${total} of ${total} operations built`);
    // Operations the client does not have are listed apart, never counted among its 128.
    const ours = ids.filter((id) => isExtension(operations[id])).sort();
    expect(ours).toContain("test-clocks:advance");
    expect(out).toContain(`Borealis extensions (${ours.length} of ${ours.length} built):\n  ${ours[0]}\n`);
    for (const id of ours) expect(out).toContain(`  ${id}\n`);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).sort());
    for (const id of [
      "organizations:create",
      "organizations:get",
      "organizations:list",
      "organizations:update",
      "products:create",
      "products:get",
      "products:list",
      "products:update",
      "products:update_benefits",
    ]) {
      expect(out).toContain(`  ${id}\n`);
    }
  });
});
