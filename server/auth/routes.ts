// better-auth's handler on our Express app, at /api/auth (mounted before any body parser: it reads
// the raw request itself). Before it sees a request, the client's address is put in a header of
// our own, so a client cannot choose the address the rate limiter counts it under.
import type { RequestHandler } from "express";
import { toNodeHandler } from "better-auth/node";
import { CLIENT_IP_HEADER, type BorealisAuth } from "./instance.js";
import type { AuthConfig } from "./config.js";

export const AUTH_BASE_PATH = "/api/auth";

/** The client's address: the trusted proxy's header when one is configured, else the TCP peer. */
export function clientAddress(headers: Record<string, string | string[] | undefined>, peer: string | undefined, config: AuthConfig): string | undefined {
  if (config.ipHeader) {
    const value = headers[config.ipHeader];
    const first = (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return peer;
}

export function authRoutes(auth: BorealisAuth, config: AuthConfig): RequestHandler {
  const handle = toNodeHandler(auth);
  return (req, res, next) => {
    const address = clientAddress(req.headers, req.socket.remoteAddress, config);
    if (address) req.headers[CLIENT_IP_HEADER] = address;
    else delete req.headers[CLIENT_IP_HEADER];
    handle(req, res).catch(next);
  };
}
