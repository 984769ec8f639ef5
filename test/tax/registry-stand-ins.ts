// Local stand-ins for the two VAT registries, with the real services' request and answer shapes:
// VIES's REST API (`POST /check-vat-number`) and HMRC's Check a UK VAT number v2 (client
// credentials token, then `GET /organisations/vat/check-vat-number/lookup/{vrn}`). `mode` turns
// either into an outage: "down" answers 503, "hang" never answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StandInMode = "up" | "down" | "hang";

export interface Trader {
  name: string;
  address: string;
}

export interface HmrcTrader {
  name: string;
  address: { line1: string; line2?: string; postcode: string; countryCode: string };
}

export interface RegistryStandIns {
  viesUrl: string;
  hmrcUrl: string;
  /** Registered EU VAT ids by their full value (`FR40303265045`). */
  vies: Map<string, Trader>;
  /** Registered UK VAT numbers by the 9 or 12 digits. */
  hmrc: Map<string, HmrcTrader>;
  mode: { vies: StandInMode; hmrc: StandInMode };
  /** Every request: VIES bodies, HMRC lookups with their headers. */
  requests: { service: "vies" | "hmrc"; path: string; body?: unknown; accept?: string; authorization?: string }[];
  close(): Promise<void>;
}

export const HMRC_CLIENT = { id: "stand-in-client", secret: "stand-in-secret", token: "stand-in-token" };

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

export async function startRegistryStandIns(): Promise<RegistryStandIns> {
  const hung = new Set<ServerResponse>();
  const state = {
    vies: new Map<string, Trader>(),
    hmrc: new Map<string, HmrcTrader>(),
    mode: { vies: "up" as StandInMode, hmrc: "up" as StandInMode },
    requests: [] as RegistryStandIns["requests"],
  };

  const outage = (mode: StandInMode, res: ServerResponse, down: unknown): boolean => {
    if (mode === "hang") hung.add(res);
    else if (mode === "down") send(res, 503, down);
    return mode !== "up";
  };

  const vies = createServer(async (req, res) => {
    const raw = await bodyOf(req);
    if (req.method !== "POST" || req.url !== "/check-vat-number")
      return send(res, 404, { actionSucceed: false, errorWrappers: [{ error: "NOT_FOUND" }] });
    const body = JSON.parse(raw) as { countryCode?: string; vatNumber?: string };
    state.requests.push({ service: "vies", path: req.url, body });
    if (
      outage(state.mode.vies, res, {
        actionSucceed: false,
        errorWrappers: [{ error: "SERVICE_UNAVAILABLE", message: "The service is unavailable" }],
      })
    )
      return;
    if (typeof body.countryCode !== "string" || typeof body.vatNumber !== "string") {
      return send(res, 400, {
        actionSucceed: false,
        errorWrappers: [{ error: "INVALID_INPUT", message: "countryCode and vatNumber are required" }],
      });
    }
    const trader = state.vies.get(body.countryCode + body.vatNumber);
    send(res, 200, {
      countryCode: body.countryCode,
      vatNumber: body.vatNumber,
      requestDate: "2026-11-27T10:00:00.000Z",
      valid: trader !== undefined,
      requestIdentifier: "",
      name: trader?.name ?? "---",
      address: trader?.address ?? "---",
      traderName: "---",
      traderStreet: "---",
      traderPostalCode: "---",
      traderCity: "---",
      traderCompanyType: "---",
      traderNameMatch: "NOT_PROCESSED",
      traderStreetMatch: "NOT_PROCESSED",
      traderPostalCodeMatch: "NOT_PROCESSED",
      traderCityMatch: "NOT_PROCESSED",
      traderCompanyTypeMatch: "NOT_PROCESSED",
      userError: trader ? "VALID" : "INVALID",
    });
  });

  const hmrc = createServer(async (req, res) => {
    const raw = await bodyOf(req);
    if (req.method === "POST" && req.url === "/oauth/token") {
      const form = new URLSearchParams(raw);
      state.requests.push({ service: "hmrc", path: req.url, body: Object.fromEntries(form) });
      const ok =
        form.get("grant_type") === "client_credentials" &&
        form.get("client_id") === HMRC_CLIENT.id &&
        form.get("client_secret") === HMRC_CLIENT.secret;
      return ok
        ? send(res, 200, { access_token: HMRC_CLIENT.token, token_type: "bearer", expires_in: 14400, scope: form.get("scope") ?? "" })
        : send(res, 401, { error: "invalid_client", error_description: "invalid client id or secret" });
    }
    const match = /^\/organisations\/vat\/check-vat-number\/lookup\/([^/]+)$/.exec(req.url ?? "");
    if (req.method !== "GET" || !match)
      return send(res, 404, {
        code: "MATCHING_RESOURCE_NOT_FOUND",
        message: "A resource with the name in the request can not be found in the API",
      });
    state.requests.push({ service: "hmrc", path: req.url ?? "", accept: req.headers.accept, authorization: req.headers.authorization });
    if (outage(state.mode.hmrc, res, { code: "SERVER_ERROR", message: "Service unavailable" })) return;
    if (req.headers.accept !== "application/vnd.hmrc.2.0+json")
      return send(res, 406, { code: "ACCEPT_HEADER_INVALID", message: "The accept header is missing or invalid" });
    if (req.headers.authorization !== `Bearer ${HMRC_CLIENT.token}`)
      return send(res, 401, { code: "MISSING_CREDENTIALS", message: "Authentication information is not provided" });
    const vrn = decodeURIComponent(match[1]);
    if (!/^(\d{9}|\d{12})$/.test(vrn))
      return send(res, 400, { code: "INVALID_REQUEST", message: "Invalid targetVrn - Vrn parameters should be 9 or 12 digits" });
    const trader = state.hmrc.get(vrn);
    if (!trader) return send(res, 404, { code: "NOT_FOUND", message: "targetVrn does not match a registered company" });
    send(res, 200, { target: { name: trader.name, vatNumber: vrn, address: trader.address }, processingDate: "2026-11-27T10:00:00+00:00" });
  });

  const [viesUrl, hmrcUrl] = await Promise.all([listen(vies), listen(hmrc)]);
  return Object.assign(state, {
    viesUrl,
    hmrcUrl,
    async close() {
      for (const res of hung) res.destroy();
      await Promise.all(
        [vies, hmrc].map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      );
    },
  });
}
