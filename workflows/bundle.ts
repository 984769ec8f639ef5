// The workflows' webpack bundle, built once and kept in .cache/workflow-bundle/ under a stamp of
// its sources: every worker start (each test file's, make run's) loads it instead of bundling
// again, which costs seconds of CPU each time.
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorkflowCode } from "@temporalio/worker";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const CACHE = path.join(ROOT, ".cache", "workflow-bundle");

function sources(dir: string, into: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(file, into);
    else if (file.endsWith(".ts")) into.push(file);
  }
  return into;
}

/** What the bundle is made of: the workflows' folder (workflows, shared, activity types), the lock file, the modules. */
function stampOf(workflowsPath: string, interceptorModules: string[]): string {
  const hash = createHash("sha256");
  for (const file of sources(HERE, []).sort()) hash.update(`${path.relative(ROOT, file)}\0`).update(readFileSync(file));
  hash.update(readFileSync(path.join(ROOT, "package-lock.json")));
  hash.update([workflowsPath, ...interceptorModules].join("\0"));
  return hash.digest("hex").slice(0, 16);
}

/** The path of the bundle of `workflowsPath` (with `interceptorModules`), built if its sources changed. */
export async function workflowBundlePath(workflowsPath: string, interceptorModules: string[] = []): Promise<string> {
  const file = path.join(CACHE, `workflows-${stampOf(workflowsPath, interceptorModules)}.js`);
  if (existsSync(file) && statSync(file).size > 0) return file;
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules: interceptorModules });
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written aside and renamed: a worker starting at the same time reads a whole file or none.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // A checkout whose .cache cannot be written (read-only, full) still starts: this process's own copy.
    const own = path.join(tmpdir(), `borealis-${process.pid}-${path.basename(file)}`);
    writeFileSync(own, code);
    return own;
  }
  // Bundles of earlier sources, unused for an hour, go.
  for (const name of readdirSync(CACHE)) {
    const old = path.join(CACHE, name);
    if (old !== file && Date.now() - statSync(old).mtimeMs > 3_600_000) rmSync(old, { force: true });
  }
  return file;
}
