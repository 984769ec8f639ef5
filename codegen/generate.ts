// `make generate`: everything under generated/ is derived from the contract in openapi/,
// deterministically byte for byte.
//   npx tsx codegen/generate.ts           regenerate generated/
//   npx tsx codegen/generate.ts --check   regenerate into a temp dir and exit 1 if generated/ is stale
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { emitAdminResources } from "./lib/admin-resources.js";
import { emitClient } from "./lib/client.js";
import { emitHandlers } from "./lib/handlers.js";
import { emitOperations } from "./lib/operations.js";
import { emitRoutes } from "./lib/routes.js";
import { emitTypes } from "./lib/types.js";
import { emitValidators } from "./lib/validators.js";
import { HEADER, type OpenApiDoc } from "./lib/model.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const generatedDir = join(root, "generated");
const contract = join(root, "openapi", "openapi.yaml");

function redoclyBin(): string {
  const pkgPath = require.resolve("@redocly/cli/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin.redocly;
  return join(dirname(pkgPath), bin);
}

function redocly(args: string[]) {
  execFileSync(process.execPath, [redoclyBin(), ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
}

/** Redoc's HTML references the redoc bundle on a CDN: inline the copy from node_modules instead. */
function inlineRedoc(html: string): string {
  const cliRequire = createRequire(require.resolve("@redocly/cli/package.json"));
  let standalone: string;
  try {
    standalone = readFileSync(cliRequire.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
  } catch {
    standalone = readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
  }
  const tag = /<script src="https?:\/\/[^"]*redoc\.standalone\.js"><\/script>/;
  if (!tag.test(html)) throw new Error("build-docs output: redoc CDN script tag not found");
  // web fonts from Google: drop them (Redoc falls back to the system fonts), nothing is fetched at view time
  html = html.replace(/<link href="https:\/\/fonts\.googleapis\.com\/[^"]*" rel="stylesheet">\s*/g, "");
  const rest = html.replace(tag, "");
  if (/<script[^>]+src=/i.test(rest) || /<link[^>]+href="https?:/i.test(rest))
    throw new Error("docs still reference external scripts/styles");
  // marked obfuscates e-mail-like text (mailto links) with randomly chosen hex/decimal entities:
  // canonicalise them to decimal so the page is byte-for-byte reproducible
  html = html.replace(/&(amp;)?#x([0-9a-f]+);/gi, (_m, amp: string | undefined, hex: string) => `&${amp ?? ""}#${parseInt(hex, 16)};`);
  const safe = standalone.replace(/<\/script/gi, "<\\/script");
  return html.replace(tag, () => `<script>${safe}</script>`);
}

async function generate(out: string) {
  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "borealis-bundle-"));
  try {
    // 1. bundle
    const bundled = join(work, "bundle.json");
    redocly(["bundle", relative(root, contract), "--dereferenced=false", "--ext", "json", "-o", bundled]);
    const doc = JSON.parse(readFileSync(bundled, "utf8")) as OpenApiDoc;
    const specText = JSON.stringify(doc, null, 2) + "\n";
    writeFileSync(join(out, "openapi.json"), specText);

    // 2. docs (self-contained)
    const html = join(work, "index.html");
    redocly(["build-docs", join(out, "openapi.json"), "-o", html]);
    mkdirSync(join(out, "docs"), { recursive: true });
    writeFileSync(join(out, "docs", "index.html"), inlineRedoc(readFileSync(html, "utf8")));

    // 3-9. code
    writeFileSync(join(out, "types.ts"), await emitTypes(doc));
    writeFileSync(join(out, "operations.ts"), emitOperations(doc));
    writeFileSync(join(out, "handlers.ts"), emitHandlers(doc));
    for (const [name, text] of Object.entries(emitValidators(doc))) writeFileSync(join(out, name), text);
    for (const [name, text] of Object.entries(emitRoutes(doc))) writeFileSync(join(out, name), text);
    await emitClient(join(out, "openapi.json"), join(out, "client"), join(root, "tsconfig.json"));
    writeFileSync(join(out, "admin-resources.ts"), emitAdminResources(doc));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) files.push(...listFiles(p, base));
    else files.push(relative(base, p));
  }
  return files;
}

/** Make `dst` hold exactly the files of `src` (only touching files whose bytes differ). */
function sync(src: string, dst: string) {
  const want = new Set(listFiles(src));
  for (const f of listFiles(dst)) if (!want.has(f)) rmSync(join(dst, f));
  for (const f of want) {
    const data = readFileSync(join(src, f));
    const target = join(dst, f);
    if (existsSync(target) && readFileSync(target).equals(data)) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
  // drop empty directories
  const prune = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) {
        prune(p);
        if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
      }
    }
  };
  if (existsSync(dst)) prune(dst);
}

function diff(a: string, b: string): string[] {
  const fa = new Set(listFiles(a));
  const fb = new Set(listFiles(b));
  const problems: string[] = [];
  for (const f of fa) {
    if (!fb.has(f)) problems.push(`missing: generated/${f}`);
    else if (!readFileSync(join(a, f)).equals(readFileSync(join(b, f)))) problems.push(`stale:   generated/${f}`);
  }
  for (const f of fb) if (!fa.has(f)) problems.push(`extra:   generated/${f}`);
  return problems;
}

const check = process.argv.includes("--check");
const tmp = mkdtempSync(join(tmpdir(), "borealis-generated-"));
try {
  await generate(tmp);
  if (check) {
    const problems = diff(tmp, generatedDir);
    if (problems.length) {
      console.error(`generated/ is stale — run \`make generate\` (npx tsx codegen/generate.ts):\n  ${problems.join("\n  ")}`);
      process.exitCode = 1;
    } else console.log("generated/ is up to date.");
  } else {
    mkdirSync(generatedDir, { recursive: true });
    sync(tmp, generatedDir);
    console.log(`generated/ written (${listFiles(generatedDir).length} files).`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
void HEADER;
