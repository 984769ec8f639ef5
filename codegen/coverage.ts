// `make coverage`: the official client's operations that have a handler (the handler map's type
// makes every operation of the contract have one), and our own extension operations apart.
import { operations } from "../generated/operations.js";
import { handlers } from "../server/handlers.js";
import { isExtension } from "./lib/extensions.js";

const ids = Object.keys(operations).sort() as (keyof typeof operations)[];
const built = new Set<string>(Object.keys(handlers));
const all = ids.filter((id) => !isExtension(operations[id]));
const extensions = ids.filter((id) => isExtension(operations[id]));
console.log(`${all.filter((id) => built.has(id)).length} of ${all.length} operations built`);
console.log("\nBuilt:");
for (const id of all.filter((id) => built.has(id))) console.log(`  ${id}`);
const missing = all.filter((id) => !built.has(id));
if (missing.length) {
  console.log("\nNot built:");
  for (const id of missing) console.log(`  ${id}`);
}
console.log(`\nBorealis extensions (${extensions.filter((id) => built.has(id)).length} of ${extensions.length} built):`);
for (const id of extensions) console.log(`  ${id}${built.has(id) ? "" : " (not built)"}`);
