// `make coverage`: how many of the official client's operations have a handler, which do not
// yet, and our own extension operations (not part of Polar's API) apart.
import { operations } from "../generated/operations.js";
import { notBuilt } from "../server/not-built.js";
import { isExtension } from "./lib/extensions.js";

const ids = Object.keys(operations).sort() as (keyof typeof operations)[];
const all = ids.filter((id) => !isExtension(operations[id]));
const extensions = ids.filter((id) => isExtension(operations[id]));
const pending = new Set<string>(notBuilt);
const built = all.filter((id) => !pending.has(id));
console.log(`${built.length} of ${all.length} operations built`);
console.log("\nBuilt:");
for (const id of built) console.log(`  ${id}`);
console.log("\nNot built yet (answer 501 NotImplemented):");
for (const id of all.filter((id) => pending.has(id))) console.log(`  ${id}`);
console.log(`\nBorealis extensions (${extensions.filter((id) => !pending.has(id)).length} of ${extensions.length} built):`);
for (const id of extensions) console.log(`  ${id}${pending.has(id) ? " (not built yet)" : ""}`);
