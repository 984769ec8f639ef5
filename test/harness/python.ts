// Runs a Python script of the test suites with the project's venv (.venv, which scripts/build-tools.sh
// fills with scripts/requirements-*.txt): `input` as JSON on its stdin, its stdout back; a
// non-zero exit rejects with what it wrote to stderr.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const PYTHON = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));

export function runPython(script: URL, input: unknown, timeoutMs = 240_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [fileURLToPath(script)], { stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`${script.pathname} exited with ${code ?? signal}:\n${Buffer.concat(err).toString("utf8")}`));
    });
    child.stdin.end(JSON.stringify(input));
  });
}
