// `make coverage`: how many of the contract's operations have a handler, and which do not yet.
import { operations } from "../generated/operations.js";
import { notBuilt } from "../server/not-built.js";

const all = Object.keys(operations).sort();
const pending = new Set<string>(notBuilt);
const built = all.filter((id) => !pending.has(id));
console.log(`${built.length} of ${all.length} operations built`);
console.log("\nBuilt:");
for (const id of built) console.log(`  ${id}`);
console.log("\nNot built yet (answer 501 NotImplemented):");
for (const id of all.filter((id) => pending.has(id))) console.log(`  ${id}`);
