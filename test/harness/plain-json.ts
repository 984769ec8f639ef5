// Plain JSON calls with an organization's token, for the Borealis extension fields the official
// client does not know (it drops them from what it sends and reads): `tax_settings`, `tax_category`.
export interface PlainJsonAnswer {
  status: number;
  body: Record<string, unknown> & { detail?: { loc: (string | number)[]; msg: string; type: string }[] };
}

/** `call(method, path, body)` on the API with the token; the answer's status and JSON body. */
export function plainJson(apiUrl: string, token: string) {
  return async function call(method: string, path: string, body?: unknown): Promise<PlainJsonAnswer> {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as PlainJsonAnswer["body"] };
  };
}
