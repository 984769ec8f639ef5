// Every API answer through one door: the data, or an ApiFailure saying what went wrong in the
// contract's terms — a 422's field messages keyed by their loc (without "body"), or the error
// name and detail of a typed error. The page decides where to show it; it never guesses why.
export type FieldErrors = Record<string, string>;

export class ApiFailure extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The typed error's name (`PaymentError`, `ExpiredCheckoutError`…), when the body has one. */
    readonly errorName: string | null,
    readonly detail: string,
    readonly fields: FieldErrors,
    /** The error body as answered (a typed error's fields beyond name and detail). */
    readonly body: unknown = null,
  ) {
    super(detail);
  }
}

/** The key a 422 issue's loc names a field by: ["body", "customer_billing_address", "country"] → "customer_billing_address.country". */
export function fieldKey(loc: readonly (string | number)[]): string {
  return (loc[0] === "body" || loc[0] === "query" || loc[0] === "path" ? loc.slice(1) : loc).join(".");
}

function failureOf(status: number, body: unknown): ApiFailure {
  if (body && typeof body === "object") {
    const b = body as { error?: unknown; detail?: unknown };
    if (Array.isArray(b.detail)) {
      const fields: FieldErrors = {};
      for (const issue of b.detail as { loc?: (string | number)[]; msg?: string }[]) {
        const key = fieldKey(issue.loc ?? []);
        fields[key] ??= issue.msg ?? "Invalid value";
      }
      return new ApiFailure(status, null, Object.values(fields)[0] ?? "Invalid input.", fields);
    }
    const detail = typeof b.detail === "string" ? b.detail : `The server answered ${status}.`;
    return new ApiFailure(status, typeof b.error === "string" ? b.error : null, detail, {}, body);
  }
  return new ApiFailure(status, null, typeof body === "string" && body ? body : `The server answered ${status}.`, {});
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

async function settle<T>(request: Promise<Answer<T>>): Promise<Answer<T>> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (err) {
    throw new ApiFailure(0, null, `Could not reach the server (${err instanceof Error ? err.message : String(err)}).`, {});
  }
  const status = answer.response?.status ?? 0;
  if (answer.error !== undefined || status >= 400) throw failureOf(status, answer.error);
  return answer;
}

/** The data of a successful call, or throws ApiFailure. */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  const answer = await settle(request);
  if (answer.data === undefined) throw new ApiFailure(answer.response?.status ?? 0, null, "The server answered without a body.", {});
  return answer.data;
}

/** A call whose answer has no body to read (204, or a 202 acknowledgement); throws ApiFailure. */
export async function send(request: Promise<Answer<unknown>>): Promise<void> {
  await settle(request);
}
