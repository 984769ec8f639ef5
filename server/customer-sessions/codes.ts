// Sign-in to the customer portal by email code (Polar's customer-session request/authenticate): a
// 6-character code goes by email to the customer with that address (Member model on: its member,
// signInMember); exchanged once before it expires, it gives a customer (or member) session token.
// A request's answer is the same whether or not the email is known (nothing to probe). Requests are
// limited per email and per client, failed codes per client (429 TooManyRequests).
import { randomInt } from "node:crypto";
import type { Knex } from "knex";
import { toCustomer } from "../customers/models.js";
import { findLiveByEmail, liveById, lockLiveInOrganization, markEmailVerified } from "../customers/repository.js";
import { checkEmail } from "../kit/email.js";
import { hashToken, randomToken } from "../kit/auth.js";
import { ApiError, invalid, TooManyRequests, Unauthorized } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { MailNotConfigured, sendMail } from "../kit/mail.js";
import { emit } from "../kit/outbox.js";
import { findOrganization } from "../organizations/repository.js";
import { memberByEmail, membersByEmailInOrganization, ownerOf, type MemberRow } from "../members/repository.js";
import { createOwnerMember, memberModelEnabled } from "../members/service.js";
import { CustomerSelectionRequired } from "./errors.js";
import { portalBaseUrl } from "./models.js";
import {
  deleteCodesExpiredBefore,
  insertCode,
  insertSession,
  limitingCodeForEmail,
  limitingCodeFromClient,
  limitingFailureFromClient,
  lockCodeRequests,
  lockLiveCode,
  recordFailure,
  useCustomerCodes,
} from "./repository.js";
import { CUSTOMER_SESSION_TTL_MS } from "./service.js";
import { setting } from "../config.js";

const settings = {
  ttlMs: setting("CUSTOMER_SESSION_CODE_TTL_SECONDS") * 1000,
  windowMs: 15 * 60 * 1000,
  perEmail: setting("CUSTOMER_SESSION_CODE_MAX_PER_EMAIL"),
  perClient: setting("CUSTOMER_SESSION_CODE_MAX_PER_CLIENT"),
  failuresPerClient: setting("CUSTOMER_SESSION_CODE_MAX_FAILURES"),
};

/** How long a code works, in minutes (for the email). */
export const CODE_TTL_MINUTES = Math.round(settings.ttlMs / 60_000);

// No 0/O or 1/I: a code is read from an email and typed.
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newCode(): string {
  let code = "";
  for (let i = 0; i < 6; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** 429 while a limit is reached: until `limiting`, the oldest row counted, leaves the window (Retry-After). */
function refuseWhileLimited(limiting: Date | null, detail: string): void {
  if (limiting) throw new TooManyRequests((limiting.getTime() + settings.windowMs - Date.now()) / 1000, detail);
}

/** A code as typed: spaces and dashes dropped, case folded. */
const normalize = (code: string) => code.replace(/[\s-]/g, "").toUpperCase();

/**
 * Who a code for `email` signs in, where the Member model is on (Polar's member lookup): the
 * organization's member with that email; none, but a customer has it: that customer's owner,
 * made on the way; several (of different customers): the one of `customerId`, else 409
 * CustomerSelectionRequired. Undefined: nobody (an unknown `customerId` too).
 */
async function signInMember(
  trx: Knex.Transaction,
  organizationId: string,
  email: string,
  customerId: string | null,
): Promise<MemberRow | undefined> {
  const members = await membersByEmailInOrganization(trx, organizationId, email);
  if (members.length === 0) {
    const found = await findLiveByEmail(trx, organizationId, email);
    const customer = found ? await lockLiveInOrganization(trx, organizationId, found.id) : undefined;
    if (!customer || (customerId !== null && customerId !== customer.id)) return undefined;
    // A customer has one owner: an owner already there (of another email) is the one signed in, as Polar's.
    if (!(await ownerOf(trx, customer.id))) await createOwnerMember(trx, customer, null);
    return ownerOf(trx, customer.id);
  }
  if (customerId !== null) return members.find((m) => m.customer_id === customerId);
  if (members.length === 1) return members[0];
  throw new CustomerSelectionRequired(members.map((m) => ({ id: m.customer_id, name: m.customer_name })));
}

export async function requestCode(
  db: Knex,
  input: { email: string; organization_id: string; customer_id?: string | null },
  clientIp: string | null,
): Promise<null> {
  const email = checkEmail(input.email, ["body", "email"]);
  const org = isUuid(input.organization_id) ? await findOrganization(db, input.organization_id) : undefined;
  if (!org) throw invalid(["body", "organization_id"], "Organization not found.", "value_error", input.organization_id);
  const since = new Date(Date.now() - settings.windowMs);
  const selection = await db.transaction(async (trx): Promise<CustomerSelectionRequired | null> => {
    // One request at a time per address: the count below holds.
    await lockCodeRequests(trx, org.id, email);
    refuseWhileLimited(
      await limitingCodeForEmail(trx, org.id, email, since, settings.perEmail),
      "Too many codes asked for this email. Wait a few minutes, then try again.",
    );
    if (clientIp) {
      refuseWhileLimited(
        await limitingCodeFromClient(trx, clientIp, since, settings.perClient),
        "Too many codes asked from here. Wait a few minutes, then try again.",
      );
    }
    // Codes long expired only count against nothing: cleared as new ones are asked for.
    await deleteCodesExpiredBefore(trx, new Date(Date.now() - 24 * 3600_000));
    // The code's email is who it goes to and signs in: the member's, or the customer's.
    const memberModel = await memberModelEnabled(trx, org.id);
    const found = memberModel ? await signInMember(trx, org.id, email, input.customer_id ?? null).catch(selectionRequired) : undefined;
    const member = found instanceof CustomerSelectionRequired ? undefined : found;
    const customer = memberModel ? member && { id: member.customer_id, email: member.email } : await findLiveByEmail(trx, org.id, email);
    const row = {
      organization_id: org.id,
      customer_id: customer?.id ?? null,
      email: member ? member.email : email,
      client_ip: clientIp,
      expires_at: new Date(Date.now() + settings.ttlMs),
    };
    // No code, but the request counts against the limits (a 409 too: asking it names customers).
    if (!customer) {
      await insertCode(trx, Object.assign({}, row, { code_hash: null }));
      return found instanceof CustomerSelectionRequired ? found : null;
    }
    // Codes are unique while they are kept: a draw equal to a kept one is drawn again.
    let code = newCode();
    while (!(await insertCode(trx, Object.assign({}, row, { code_hash: hashToken(code) })))) code = newCode();
    const portal = `${portalBaseUrl()}/${encodeURIComponent(org.slug)}/portal`;
    // Sent before commit: a code that could not be sent is not kept.
    await sendCode({
      to: customer.email,
      subject: `Your ${org.name} sign-in code: ${code}`,
      text: [
        `Your code to sign in to ${org.name}'s customer portal is:`,
        "",
        `    ${code}`,
        "",
        `It works once, for ${CODE_TTL_MINUTES} minutes. Enter it at ${portal}`,
        "",
        "If you did not ask for it, ignore this email.",
      ].join("\n"),
      html: `<p>Your code to sign in to ${escapeHtml(org.name)}'s customer portal is:</p><p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p><p>It works once, for ${CODE_TTL_MINUTES} minutes. Enter it at <a href="${portal}">${escapeHtml(portal)}</a>.</p><p>If you did not ask for it, ignore this email.</p>`,
    });
    return null;
  });
  if (selection) throw selection;
  return null;
}

/** The 409 asking which customer, answered (not thrown) so that the request still counts. */
function selectionRequired(err: unknown): CustomerSelectionRequired {
  if (err instanceof CustomerSelectionRequired) return err;
  throw err;
}

/** Sends the email (`what` it is, for the 503); a server with nowhere to send email answers 503 MailNotConfigured. */
export async function sendCode(mail: Parameters<typeof sendMail>[0], what = "sign-in codes"): Promise<void> {
  try {
    await sendMail(mail);
  } catch (err) {
    if (err instanceof MailNotConfigured)
      throw new ApiError(503, "MailNotConfigured", `This server has no email set up (SMTP_URL), so it can't send ${what}.`);
    throw err;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Exchanges a code for a session token, once. */
export async function authenticateCode(db: Knex, input: { code: string }, clientIp: string | null): Promise<{ token: string }> {
  const since = new Date(Date.now() - settings.windowMs);
  // Locked out, even the right code is refused: the answer says when to try again.
  if (clientIp) {
    refuseWhileLimited(
      await limitingFailureFromClient(db, clientIp, since, settings.failuresPerClient),
      "Too many wrong codes. Wait a few minutes, then ask for a new code.",
    );
  }
  const code = normalize(typeof input.code === "string" ? input.code : "");
  if (code.length !== 6) throw invalid(["body", "code"], "A code has 6 characters.", "value_error", input.code);
  const token = await db.transaction(async (trx) => {
    const row = await lockLiveCode(trx, hashToken(code));
    if (!row) return null;
    // Where the Member model is on, the session is the member's with the code's email (gone since: no session).
    const member = (await memberModelEnabled(trx, row.organization_id)) ? await memberByEmail(trx, row.customer_id, row.email) : null;
    if (member === undefined) return null;
    // Used: this code, and every other live code of the customer (a member's: of its email), one sign-in per round of emails.
    await useCustomerCodes(trx, row.customer_id, member ? member.email : null);
    const plain = randomToken("polar_cst_");
    await insertSession(trx, {
      customer_id: row.customer_id,
      member_id: member?.id ?? null,
      token_hash: hashToken(plain),
      expires_at: new Date(Date.now() + CUSTOMER_SESSION_TTL_MS),
    });
    // The code reached the customer's inbox: the email is theirs (a member's other email proves nothing of it).
    const customer = await liveById(trx, row.customer_id);
    const verified =
      customer && customer.email.toLowerCase() === row.email.toLowerCase() ? await markEmailVerified(trx, row.customer_id) : undefined;
    if (verified) await emit(trx, row.organization_id, "customer.updated", toCustomer(verified));
    return plain;
  });
  if (!token) {
    if (clientIp) await recordFailure(db, clientIp);
    throw new Unauthorized("This code is wrong, was already used, or has expired. Ask for a new one.");
  }
  return { token };
}
