// Requests from a loopback address of a test's own (127.0.0.2, 127.0.0.3, …): the API sees each as
// another client (its TCP peer), so limits counted per client can be told apart in one run.
import { request } from "node:http";

export interface PeerAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to `url` from the local address `local`, with a body and headers of its own. */
export function fetchFrom(
  local: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PeerAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", localAddress: local, headers: init.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
