// Public host names for a browser test, served on this machine: an HTTPS server (a throwaway
// self-signed certificate made with openssl) that Chromium reaches for the given names through
// --host-resolver-rules, forwarding one name to the stack's API and answering others with a page
// of the test's own. For what must run at a real https origin (an embed script's allow-list).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import http from "node:http";
import os from "node:os";
import path from "node:path";

export interface PublicHosts {
  port: number;
  /** The Chromium flags that send the names here and accept the certificate. */
  chromiumArgs(): string[];
  close(): Promise<void>;
}

export async function startPublicHosts(opts: {
  /** Host name → the base URL it forwards to (read per request, e.g. the stack's URL once started). */
  forward: Record<string, () => string>;
  /** Host name → an HTML page answered for every path. */
  pages: Record<string, () => string>;
}): Promise<PublicHosts> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "borealis-tls-"));
  const names = [...Object.keys(opts.forward), ...Object.keys(opts.pages)];
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${names[0]}`,
      "-addext",
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`,
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const server: Server = createServer(
    { key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) },
    (req, res) => {
      const host = (req.headers.host ?? "").split(":")[0];
      const page = opts.pages[host];
      if (page) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page());
        return;
      }
      const target = opts.forward[host];
      if (!target) {
        res.writeHead(502).end();
        return;
      }
      const upstream = http.request(new URL(req.url ?? "/", target()), { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    chromiumArgs: () => [
      `--host-resolver-rules=${names.map((n) => `MAP ${n} 127.0.0.1:${port}`).join(",")}`,
      "--ignore-certificate-errors",
    ],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
