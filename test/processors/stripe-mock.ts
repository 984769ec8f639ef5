// Starts stripe-mock (built by scripts/build-tools.sh into .cache/bin) on a free port for one test file.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer } from "node:net";

export const STRIPE_MOCK_BIN = new URL("../../.cache/bin/stripe-mock", import.meta.url).pathname;
export const hasStripeMock = existsSync(STRIPE_MOCK_BIN);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`stripe-mock did not listen on ${port}`);
}

export async function startStripeMock(): Promise<{ port: number; stop: () => void; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(STRIPE_MOCK_BIN, ["-http-port", String(port)], { stdio: "ignore" });
  await waitForPort(port);
  return { port, process: child, stop: () => void child.kill() };
}
