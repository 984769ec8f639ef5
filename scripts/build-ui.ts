// Builds the browser apps of server/ui-apps.ts with Vite (`make ui`; `make run` and the browser
// tests call it too), each only when its sources changed since its last build (a stamp in
// <dir>/dist/.build-stamp). A second process asking at once waits for the first (a lock directory).
//   tsx scripts/build-ui.ts [--force] [app names…]
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { distDir, type UiApp } from "../server/kit/ui-apps.js";
import { UI_APPS } from "../server/ui-apps.js";
import { sleep } from "../server/kit/time.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VITE = path.join(ROOT, "node_modules", ".bin", "vite");
const SKIP = new Set(["dist", "node_modules", ".vite"]);

function walk(dir: string, out: string[]) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
}

/** What the app's build is made from: its files and the locked dependency versions. */
export function sourceStamp(app: UiApp): string {
  const files: string[] = [];
  for (const dir of [app.dir, ...(app.sources ?? [])]) walk(path.join(ROOT, dir), files);
  files.sort();
  const hash = createHash("sha256");
  for (const file of files) {
    const st = statSync(file);
    hash.update(`${path.relative(ROOT, file)}\0${st.size}\0${st.mtimeMs}\n`);
  }
  hash.update(readFileSync(path.join(ROOT, "package-lock.json")));
  return hash.digest("hex");
}

function stampFile(app: UiApp) {
  return path.join(distDir(app), ".build-stamp");
}

export function isFresh(app: UiApp): boolean {
  const file = stampFile(app);
  return existsSync(file) && existsSync(path.join(distDir(app), "index.html")) && readFileSync(file, "utf8").trim() === sourceStamp(app);
}

function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_ENV: "production" } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}:\n${out}`))));
  });
}

/** Holds a lock directory while fn runs; a lock older than 10 minutes is a leftover. */
async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(ROOT, ".cache", `ui-build-${name}.lock`);
  mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch {
      try {
        if (Date.now() - statSync(dir).mtimeMs > 10 * 60_000) rmSync(dir, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds each app whose build is missing or stale (every one with force); says which it built. */
export async function buildUiApps(
  apps: readonly UiApp[] = UI_APPS,
  opts: { force?: boolean; log?: (msg: string) => void } = {},
): Promise<string[]> {
  const built: string[] = [];
  for (const app of apps) {
    await withLock(app.name, async () => {
      if (!opts.force && isFresh(app)) return;
      const started = Date.now();
      const stamp = sourceStamp(app);
      await run(VITE, ["build", "--config", path.join(ROOT, app.dir, "vite.config.ts"), "--logLevel", "warn"], path.join(ROOT, app.dir));
      writeFileSync(stampFile(app), `${stamp}\n`);
      built.push(app.name);
      opts.log?.(`built ${app.name} (${app.dir}/dist) in ${Date.now() - started} ms`);
    });
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const names = args.filter((a) => !a.startsWith("--"));
  const unknown = names.filter((n) => !UI_APPS.some((a) => a.name === n));
  if (unknown.length) {
    console.error(`unknown app(s): ${unknown.join(", ")}; known: ${UI_APPS.map((a) => a.name).join(", ")}`);
    process.exit(2);
  }
  const apps = names.length ? UI_APPS.filter((a) => names.includes(a.name)) : UI_APPS;
  buildUiApps(apps, { force, log: (m) => console.log(`[ui] ${m}`) })
    .then((built) => {
      if (!built.length) console.log(apps.length ? `[ui] up to date: ${apps.map((a) => a.name).join(", ")}` : "[ui] no apps to build");
    })
    .catch((err) => {
      console.error(`[ui] ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
