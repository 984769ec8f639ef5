// generated/client/: @hey-api/openapi-ts fetch client (sdk + types) for our UIs.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { HEADER } from "./model.js";

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

export async function emitClient(specPath: string, outDir: string, tsConfigPath: string): Promise<void> {
  await createClient({
    input: specPath,
    output: { path: outDir, clean: true, format: false, lint: false, tsConfigPath },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
    logs: { level: "silent", file: false },
  } as never);
  if (!existsSync(outDir)) throw new Error("hey-api produced no output");
  for (const f of walk(outDir)) {
    if (!f.endsWith(".ts")) continue;
    // NodeNext needs explicit files: hey-api imports the bundled client directory as './client'
    const text = readFileSync(f, "utf8").replace(/from '\.\/client'/g, "from './client/index.js'");
    writeFileSync(f, HEADER + text);
  }
}
