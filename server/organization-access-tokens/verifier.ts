// Verifies organization access tokens on the hot path with a cache that is never wrong for long:
// every change that matters NOTIFYs `organization_access_tokens` with the token's id, and every API
// process LISTENs and drops it at once; while not listening, nothing is cached. Entries never
// outlive the token's expiry or TTL_MS, and a read that raced a notification is not cached.
// The API's own changes answer only once their notification has reached this process.
import type { Knex } from "knex";
import pg from "pg";
import { Unauthorized } from "../kit/errors.js";
import { hashToken, type OrganizationCaller } from "../kit/auth.js";
import { logger } from "../kit/logger.js";
import { findLiveByHash, recordUse } from "./repository.js";

export const TOKEN_CHANNEL = "organization_access_tokens";
/** How long a token is trusted between two reads while notifications flow (ms). */
export const TTL_MS = 60_000;
/** last_used_at is written at most this often per token (ms). */
export const LAST_USED_PRECISION_MS = 60_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

/** The verifiers of this process (one per API server). */
const live = new Set<OrganizationTokens>();
const NOTIFIED_WAIT_MS = 1_000;

/**
 * After a token was changed or revoked through the API (call once the change committed): drops it
 * from every cache of this process, then waits (briefly) for its notification to come back.
 */
export async function tokenChanged(tokenId: string): Promise<void> {
  for (const verifier of live) verifier.forget(tokenId);
  await Promise.all([...live].map((v) => v.notified(tokenId, NOTIFIED_WAIT_MS)));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class OrganizationTokens {
  /** token hash → caller; a Map keeps insertion order, so the first key is the oldest entry. */
  private readonly cache = new Map<string, { caller: OrganizationCaller; until: number }>();
  private listener: pg.Client | null = null;
  private listening = false;
  private invalidations = 0;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Token ids someone waits to hear about → their wake-ups. */
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly db: Knex,
    private readonly connectionUrl: string,
  ) {}

  /** Starts listening (the cache stays off until the LISTEN is in place). */
  async start(): Promise<void> {
    live.add(this);
    await this.connect().catch((err) => {
      logger.warn({ err }, "organization token notifications: could not listen; tokens are read from the database until it can");
      this.scheduleReconnect();
    });
  }

  /** Whether tokens are being cached (notifications are flowing). */
  get caching(): boolean {
    return this.listening;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionUrl });
    client.on("notification", (msg) => {
      if (msg.channel !== TOKEN_CHANNEL) return;
      this.forget(msg.payload || undefined);
      for (const wake of this.waiting.get(msg.payload ?? "") ?? []) wake();
    });
    const lost = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      this.stopCaching();
      if (!this.closed) {
        logger.warn({ err }, "organization token notifications: connection lost; reconnecting");
        this.scheduleReconnect();
      }
      client.end().catch(() => {});
    };
    client.on("error", lost);
    client.on("end", () => lost());
    await client.connect();
    this.listener = client;
    await client.query(`listen ${TOKEN_CHANNEL}`);
    if (this.closed) return void (await client.end().catch(() => {}));
    this.listening = true;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(() => this.scheduleReconnect());
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private stopCaching(): void {
    this.listening = false;
    this.forget();
    for (const wakes of [...this.waiting.values()]) for (const wake of [...wakes]) wake();
  }

  /** Resolves when this verifier hears of the token's change (or at once if it is not listening). */
  notified(tokenId: string, timeoutMs: number): Promise<void> {
    if (!this.listening) return Promise.resolve();
    return new Promise((resolve) => {
      const wakes = this.waiting.get(tokenId) ?? new Set<() => void>();
      this.waiting.set(tokenId, wakes);
      const done = () => {
        clearTimeout(timer);
        wakes.delete(done);
        if (!wakes.size) this.waiting.delete(tokenId);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      wakes.add(done);
    });
  }

  /** Drops cached callers: one token's, or every one. */
  forget(tokenId?: string): void {
    this.invalidations++;
    if (tokenId === undefined) return this.cache.clear();
    for (const [hash, entry] of this.cache) if (entry.caller.tokenId === tokenId) this.cache.delete(hash);
  }

  async authenticate(token: string | null): Promise<OrganizationCaller> {
    if (!token) throw new Unauthorized("Missing bearer token.");
    if (!token.startsWith("polar_oat_")) throw new Unauthorized("Invalid or expired token.");
    const hash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) {
      await nextTurn();
      if (this.cache.get(hash) === cached) return cached.caller;
    } else if (cached) this.cache.delete(hash);
    const seen = this.invalidations;
    const row = await findLiveByHash(this.db, hash);
    if (!row) throw new Unauthorized("Invalid or expired token.");
    const caller: OrganizationCaller = Object.freeze({
      kind: "organization" as const,
      organizationId: row.organization_id,
      tokenId: row.id,
      scopes: new Set<string>(row.scopes),
    });
    const until = Math.min(now + TTL_MS, row.expires_at ? new Date(row.expires_at).getTime() : Infinity);
    if (this.listening && seen === this.invalidations && until > now) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { caller, until });
    }
    if (!row.last_used_at || now - new Date(row.last_used_at).getTime() >= LAST_USED_PRECISION_MS) this.touch(row.id);
    return caller;
  }

  /** Records the use, off the request's path (the trigger ignores last_used_at: no notification). */
  private touch(id: string): void {
    recordUse(this.db, id).catch((err) => logger.warn({ err }, "could not record an organization token's last use"));
  }

  async close(): Promise<void> {
    this.closed = true;
    live.delete(this);
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.listener;
    this.listener = null;
    this.stopCaching();
    await client?.end().catch(() => {});
  }
}
