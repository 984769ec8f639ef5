// The offline processor: deterministic test tokens (docs/SANDBOX.md) so the checkout flow works
// without network. Like Stripe, a key seen before answers what it answered first, across processes
// too with SANDBOX_LEDGER_DIR (one file per key, first writer wins). SANDBOX_CHARGE_DELAY_MS holds
// a charge's answer back after it is recorded, as if the response were slow or lost.
import { createHash, randomUUID } from "node:crypto";
import { link, mkdir, readdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type {
  CardDetails,
  ChargeResult,
  ChargeSavedInput,
  ConfirmPaymentInput,
  ConfirmResult,
  PaymentProcessor,
  SavedMethod,
  SetupState,
} from "./processor.js";
import { setting } from "../config.js";
import { sleep } from "../kit/time.js";

type Outcome = "success" | "dispute" | "generic_decline" | "insufficient_funds" | "requires_action";

/** Test card numbers, as Stripe's test cards behave. */
const CARDS: Record<string, { outcome: Outcome; brand: string }> = {
  "4242424242424242": { outcome: "success", brand: "visa" },
  "5555555555554444": { outcome: "success", brand: "mastercard" },
  "4000000000000002": { outcome: "generic_decline", brand: "visa" },
  "4000000000009995": { outcome: "insufficient_funds", brand: "visa" },
  "4000002500003155": { outcome: "requires_action", brand: "visa" },
  // Succeeds, then the card holder disputes the charge as fraudulent.
  "4000000000000259": { outcome: "dispute", brand: "visa" },
};

/** Named tokens map to a card number. */
const NAMED: Record<string, string> = {
  tok_sandbox_success: "4242424242424242",
  tok_sandbox_decline: "4000000000000002",
  tok_sandbox_insufficient_funds: "4000000000009995",
  tok_sandbox_requires_action: "4000002500003155",
  tok_sandbox_dispute: "4000000000000259",
};

/** A token's card expiry suffix, `_exp_MM_YYYY` (`tok_sandbox_success_exp_01_2029`). */
const EXPIRY = /_exp_(0[1-9]|1[0-2])_(\d{4})$/;

/**
 * `tok_sandbox_success`, `tok_sandbox_4242424242424242`, or a bare test card number, each
 * optionally with an expiry (`_exp_MM_YYYY`); without one the card's expiry is unknown.
 */
export function parseSandboxToken(token: string): { outcome: Outcome; card: CardDetails } | null {
  const number = cardNumberOf(token);
  if (number === null) return null;
  const card = CARDS[number];
  if (!card) return null;
  const expiry = EXPIRY.exec(token);
  const exp = expiry ? { expMonth: Number(expiry[1]), expYear: Number(expiry[2]) } : {};
  return { outcome: card.outcome, card: Object.assign({ brand: card.brand, last4: number.slice(-4) }, exp) };
}

/** How long a sandbox dispute gives the merchant to answer, as Stripe's test disputes do. */
const EVIDENCE_DAYS = 7;

const ref = (prefix: string, key: string) => `${prefix}_sandbox_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

/**
 * A saved method remembers the test card it was saved with (`pm_sandbox_<card>_<hash>`), so an
 * off-session charge behaves as that card does: a method saved from the decline card is declined
 * at renewal. A method saved with `tok_sandbox_success` renews fine.
 */
const methodRef = (card: string | null, key: string) =>
  card ? `pm_sandbox_${card}_${createHash("sha256").update(key).digest("hex").slice(0, 24)}` : ref("pm", key);
const cardOfMethod = (methodRef: string) => /^pm_sandbox_(\d{16})_/.exec(methodRef)?.[1] ?? "4242424242424242";

function cardNumberOf(token: string): string | null {
  const bare = token.replace(EXPIRY, "");
  return NAMED[bare] ?? /^(tok_sandbox_)?(\d{16})$/.exec(bare)?.[2] ?? null;
}

/** One answered idempotency key, as the ledger keeps it. */
export interface SandboxLedgerEntry {
  key: string;
  recordedAt: string;
  value: unknown;
  /** Set for off-session charges: what was charged. */
  charge?: SandboxCharge;
}

export interface SandboxCharge {
  idempotencyKey: string;
  amount: number;
  currency: string;
  paymentMethodRef: string;
  status: ChargeResult["status"];
}

/** A setup the sandbox started: whose, with which test token, and the method it saves. */
interface SandboxSetup {
  customerRef: string;
  token: string;
  paymentMethodRef: string;
}

export interface SandboxOptions {
  /** Where answered keys survive the process; SANDBOX_LEDGER_DIR unless told, none (memory only) when unset. */
  ledgerDir?: string | null;
  /** Milliseconds every charge's answer (confirm, off-session charge) is held back after it is recorded; SANDBOX_CHARGE_DELAY_MS unless told. */
  chargeDelayMs?: number;
}

const entryFile = (dir: string, key: string) => path.join(dir, `${createHash("sha256").update(key).digest("hex")}.json`);

async function readEntry(file: string): Promise<SandboxLedgerEntry | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as SandboxLedgerEntry;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Every entry of a ledger directory (what tests and the benchmark count across processes). */
export async function readSandboxLedger(dir: string): Promise<SandboxLedgerEntry[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".json"));
  const entries = await Promise.all(names.map((n) => readEntry(path.join(dir, n))));
  return entries.filter((e): e is SandboxLedgerEntry => e !== null);
}

export class SandboxProcessor implements PaymentProcessor {
  readonly name = "sandbox" as const;
  private readonly seen = new Map<string, Promise<unknown>>();
  private readonly ledgerDir: string | null;
  private readonly chargeDelayMs: number;

  constructor(opts: SandboxOptions = {}) {
    this.ledgerDir = opts.ledgerDir !== undefined ? opts.ledgerDir : (setting("SANDBOX_LEDGER_DIR") ?? null);
    const delay = opts.chargeDelayMs ?? setting("SANDBOX_CHARGE_DELAY_MS");
    this.chargeDelayMs = Number.isFinite(delay) && delay > 0 ? delay : 0;
  }

  /**
   * The first answer for `key`, made by `make` only if no one (this process, or another one through
   * the ledger) answered it before. A charge (`asCharge`) that this call made is counted in `charges`.
   */
  private once<T>(key: string, make: () => T, asCharge?: (value: T) => SandboxCharge): Promise<T> {
    let answer = this.seen.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = this.answer(key, make, asCharge);
      this.seen.set(key, answer);
      answer.catch(() => this.seen.delete(key)); // a ledger that could not be written: nothing was answered
    }
    return answer;
  }

  private async answer<T>(key: string, make: () => T, asCharge?: (value: T) => SandboxCharge): Promise<T> {
    if (!this.ledgerDir) {
      const value = make();
      if (asCharge) this.charges.push(asCharge(value));
      return value;
    }
    const file = entryFile(this.ledgerDir, key);
    const earlier = await readEntry(file);
    if (earlier) return earlier.value as T;
    const value = make();
    const entry: SandboxLedgerEntry = { key, recordedAt: new Date().toISOString(), value, charge: asCharge?.(value) };
    // Written aside, then linked into place: the entry appears whole or not at all, and link()
    // fails when another writer got there first, whose answer then stands.
    await mkdir(this.ledgerDir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify(entry));
    try {
      await link(tmp, file);
      if (entry.charge) this.charges.push(entry.charge);
      return value;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      return ((await readEntry(file)) as SandboxLedgerEntry).value as T;
    } finally {
      await unlink(tmp).catch(() => {});
    }
  }

  async createCustomer(input: { idempotencyKey: string }): Promise<string> {
    return ref("cus", input.idempotencyKey);
  }

  async confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmResult> {
    const result = await this.once(`confirm:${input.idempotencyKey}`, (): ConfirmResult => {
      const parsed = parseSandboxToken(input.confirmationToken);
      const paymentRef = ref("pi", input.idempotencyKey);
      if (!parsed)
        return { status: "declined", paymentRef: null, code: "invalid_token", message: "Unknown sandbox confirmation token.", card: null };
      const paymentMethodRef = input.setupFutureUsage ? methodRef(cardNumberOf(input.confirmationToken), input.idempotencyKey) : null;
      switch (parsed.outcome) {
        case "success":
          return { status: "succeeded", paymentRef, paymentMethodRef, card: parsed.card };
        case "dispute":
          return {
            status: "succeeded",
            paymentRef,
            paymentMethodRef,
            card: parsed.card,
            dispute: {
              ref: ref("du", input.idempotencyKey),
              paymentRef,
              status: "needs_response",
              amount: input.amount,
              currency: input.currency,
              reason: "fraudulent",
              evidenceDueBy: new Date(Date.now() + EVIDENCE_DAYS * 86_400_000).toISOString(),
              pastDue: false,
            },
          };
        case "generic_decline":
          return { status: "declined", paymentRef, code: "card_declined", message: "Your card was declined.", card: parsed.card };
        case "insufficient_funds":
          return {
            status: "declined",
            paymentRef,
            code: "insufficient_funds",
            message: "Your card has insufficient funds.",
            card: parsed.card,
          };
        case "requires_action":
          return { status: "requires_action", paymentRef, clientSecret: `${paymentRef}_secret` };
      }
    });
    await this.heldBack();
    return result;
  }

  async savePaymentMethod(input: { customerRef: string; confirmationToken: string; idempotencyKey: string }): Promise<SavedMethod> {
    const parsed = parseSandboxToken(input.confirmationToken);
    const setupRef = ref("seti", input.idempotencyKey);
    const paymentMethodRef = methodRef(parsed ? cardNumberOf(input.confirmationToken) : null, input.idempotencyKey);
    await this.once<SandboxSetup>(`setup:${setupRef}`, () => ({
      customerRef: input.customerRef,
      token: input.confirmationToken,
      paymentMethodRef,
    }));
    return {
      paymentMethodRef,
      card: parsed?.card ?? null,
      // The 3-D Secure card's setup waits for its holder, as Stripe's setup intent does.
      clientSecret: parsed?.outcome === "requires_action" ? `${setupRef}_secret` : null,
    };
  }

  /**
   * A setup savePaymentMethod recorded. Its holder authenticates on the processor's own page, which
   * the sandbox has not: a setup asked for again is authenticated, as after Stripe.js' confirmCardSetup.
   */
  async findSetup(setupRef: string): Promise<SetupState | null> {
    const setup = await this.recorded<SandboxSetup>(`setup:${setupRef}`);
    if (!setup) return null;
    const parsed = parseSandboxToken(setup.token);
    return {
      customerRef: setup.customerRef,
      status: parsed ? "succeeded" : "failed",
      paymentMethodRef: setup.paymentMethodRef,
      card: parsed?.card ?? null,
      clientSecret: null,
    };
  }

  /** What `key` was answered, if it was (here, or in the ledger); null otherwise. */
  private async recorded<T>(key: string): Promise<T | null> {
    const seen = this.seen.get(key) as Promise<T> | undefined;
    if (seen) return seen;
    if (!this.ledgerDir) return null;
    const entry = await readEntry(entryFile(this.ledgerDir, key));
    return entry ? (entry.value as T) : null;
  }

  /** Every off-session charge this process really made (one per idempotency key): what tests count. */
  readonly charges: SandboxCharge[] = [];

  async chargeSaved(input: ChargeSavedInput): Promise<ChargeResult> {
    const result = await this.once(
      `charge:${input.idempotencyKey}`,
      (): ChargeResult => {
        const number = cardOfMethod(input.paymentMethodRef);
        const parsed = parseSandboxToken(number);
        const paymentRef = ref("pi", input.idempotencyKey);
        const card = parsed?.card ?? null;
        let result: ChargeResult;
        switch (parsed?.outcome ?? "success") {
          // The dispute card's renewals go through; only its first charge is disputed.
          case "success":
          case "dispute":
            result = { status: "succeeded", paymentRef, card };
            break;
          case "insufficient_funds":
            result = { status: "declined", paymentRef, code: "insufficient_funds", message: "Your card has insufficient funds.", card };
            break;
          case "requires_action":
            // A card that needs the buyer (3-D Secure) cannot be charged off-session: Stripe's code for it.
            result = {
              status: "declined",
              paymentRef,
              code: "authentication_required",
              message: "This card needs the customer's authentication.",
              card,
            };
            break;
          default:
            result = { status: "declined", paymentRef, code: "card_declined", message: "Your card was declined.", card };
        }
        return result;
      },
      (result) => ({
        idempotencyKey: input.idempotencyKey,
        amount: input.amount,
        currency: input.currency,
        paymentMethodRef: input.paymentMethodRef,
        status: result.status,
      }),
    );
    await this.heldBack();
    return result;
  }

  /** A charge's answer, recorded, is held back SANDBOX_CHARGE_DELAY_MS before it is given. */
  private async heldBack(): Promise<void> {
    if (this.chargeDelayMs > 0) await sleep(this.chargeDelayMs);
  }

  async refund(input: { paymentRef: string; amount: number; idempotencyKey: string }) {
    return this.once(`refund:${input.idempotencyKey}`, () => ({
      refundRef: ref("re", input.idempotencyKey),
      status: "succeeded" as const,
    }));
  }

  /** Closing a dispute concedes it: lost, as Stripe answers. */
  async closeDispute(input: { disputeRef: string; idempotencyKey: string }) {
    return this.once(`close-dispute:${input.idempotencyKey}`, () => ({ status: "lost" as const }));
  }
}
