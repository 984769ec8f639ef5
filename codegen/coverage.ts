// `make coverage`: each official client's operations (read from its installed source) that have a
// handler, and our own extension operations apart. The handler map's type makes every operation of
// the contract have one, so a client operation is built when the contract declares it.
import { readdirSync, readFileSync } from "node:fs";
import { operations } from "../generated/operations.js";
import { handlers } from "../server/handlers.js";
import { isExtension } from "./lib/extensions.js";

const CLIENTS = [
  { name: "@polar-sh/sdk 0.34.17", dir: "@polar-sh/sdk" },
  { name: "@polar-sh/sdk 0.49.0", dir: "polar-sdk-049" },
];

function clientOperations(dir: string): string[] {
  const funcs = new URL(`../node_modules/${dir}/src/funcs/`, import.meta.url);
  const ids = new Set<string>();
  for (const file of readdirSync(funcs)) {
    const id = /operationID: "([^"]+)"/.exec(readFileSync(new URL(file, funcs), "utf8"))?.[1];
    if (id) ids.add(id);
  }
  return [...ids].sort();
}

const built = new Set<string>(Object.keys(handlers));
const verbose = process.argv.includes("--all");
for (const client of CLIENTS) {
  const ids = clientOperations(client.dir);
  const missing = ids.filter((id) => !built.has(id));
  console.log(`${client.name}: ${ids.length - missing.length} of ${ids.length} operations built`);
  if (verbose) for (const id of ids.filter((id) => built.has(id))) console.log(`  built      ${id}`);
  for (const id of missing) console.log(`  not built  ${id}`);
}

const ids = Object.keys(operations).sort() as (keyof typeof operations)[];
const extensions = ids.filter((id) => isExtension(operations[id]));
console.log(`\nBorealis extensions (${extensions.filter((id) => built.has(id)).length} of ${extensions.length} built):`);
for (const id of extensions) console.log(`  ${id}${built.has(id) ? "" : " (not built)"}`);
