// Lists each pair of server/<folder>/ domains that import each other (value or type imports),
// from dependency-cruiser's JSON graph, and prints the count (`make domain-pairs`). The goal is
// none. A domain's handlers (handlers.ts, *-handlers.ts) are its composition edge and are not
// counted, as .dependency-cruiser.cjs's below() rules allow. `make deps-graph` enforces directions.
import { spawnSync } from "node:child_process";

type Graph = { modules: { source: string; dependencies: { resolved: string }[] }[] };

const run = spawnSync("node_modules/.bin/depcruise", ["server", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
  encoding: "utf8",
  maxBuffer: 256 * 1024 * 1024,
});
if (run.error || !run.stdout) throw run.error ?? new Error(`depcruise failed: ${run.stderr}`);
const graph = JSON.parse(run.stdout) as Graph;

const domainOf = (file: string): string | undefined => /^server\/([^/]+)\//.exec(file)?.[1];
const isHandlers = (file: string): boolean => /\/(handlers|[a-z-]*-handlers)\.ts$/.test(file);

// edges.get("a")?.get("b") = the files of a that import b, one example each.
const edges = new Map<string, Map<string, string>>();
for (const mod of graph.modules) {
  const from = domainOf(mod.source);
  if (!from || isHandlers(mod.source)) continue;
  for (const dep of mod.dependencies) {
    const to = domainOf(dep.resolved);
    if (!to || to === from) continue;
    const out = edges.get(from) ?? new Map<string, string>();
    if (!out.has(to)) out.set(to, `${mod.source} -> ${dep.resolved}`);
    edges.set(from, out);
  }
}

const pairs: string[] = [];
for (const [a, out] of edges) {
  for (const [b, example] of out) {
    const back = edges.get(b)?.get(a);
    if (a < b && back) pairs.push(`${a} <-> ${b}\n    ${example}\n    ${back}`);
  }
}
pairs.sort();
for (const pair of pairs) console.log(pair);
console.log(`${pairs.length} pair(s) of server domains import each other`);
