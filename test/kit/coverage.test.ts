// `make coverage`: counts the built operations of the contract and lists the rest.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { notBuilt } from "../../server/not-built.js";
import { handlers } from "../../server/handlers.js";

describe("coverage", () => {
  it("prints N of 128 operations built, matching the handler map", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "codegen/coverage.ts"], { encoding: "utf8" });
    const total = Object.keys(operations).length;
    expect(total).toBe(128);
    expect(out.split("\n")[0]).toBe(`${total - notBuilt.length} of ${total} operations built`);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).filter((id) => !(notBuilt as readonly string[]).includes(id)).sort());
    for (const id of ["organizations:create", "organizations:get", "organizations:list", "organizations:update", "products:create", "products:get", "products:list", "products:update", "products:update_benefits"]) {
      expect(out).toContain(`  ${id}\n`);
    }
  });
});
