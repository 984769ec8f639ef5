// A real S3-compatible server for one test file: versitygw (built by scripts/build-tools.sh into
// .cache/bin) over a throwaway directory, on 127.0.0.1. It checks SigV4 signatures (presigned
// URLs included), the x-amz-checksum-sha256 of uploaded parts, and bucket policies.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/services.js";
import { sleep } from "../../server/kit/time.js";

export const VERSITYGW_BIN = new URL("../../.cache/bin/versitygw", import.meta.url).pathname;

export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  stop(): Promise<void>;
}

export async function startS3Server(): Promise<S3Server> {
  if (!existsSync(VERSITYGW_BIN)) throw new Error(`${VERSITYGW_BIN} is missing: run scripts/build-tools.sh (or make install) first`);
  const dir = mkdtempSync(path.join(tmpdir(), "borealis-s3-"));
  const [root, meta] = [path.join(dir, "root"), path.join(dir, "meta")];
  mkdirSync(root);
  mkdirSync(meta);
  const port = await freePort();
  const server = {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: "borealis-test",
    secretAccessKey: "borealis-test-secret",
    region: "us-east-1",
  };
  // Metadata in a sidecar directory: no need for extended attributes on the test filesystem.
  const args = [
    "--access",
    server.accessKeyId,
    "--secret",
    server.secretAccessKey,
    "--region",
    server.region,
    "--port",
    `127.0.0.1:${port}`,
    "--quiet",
    "posix",
    "--sidecar",
    meta,
    root,
  ];
  const child = spawn(VERSITYGW_BIN, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`versitygw exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(server.endpoint).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) throw new Error(`versitygw did not listen on ${port}: ${stderr}`);
    await sleep(100);
  }
  return {
    ...server,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
