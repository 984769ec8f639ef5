// Reading the emails the API sent, from Mailpit's HTTP API (the vitest global setup starts
// Mailpit and points SMTP_URL at it). Tests find messages by recipient, never from logs.
//
//   const mail = await latestMail("ada@example.com", { subject: /Verify/ });
//   const url = linkIn(mail, "/api/auth/verify-email");
import { inject } from "vitest";
import { sleep } from "../../server/kit/time.js";

export interface MailMessage {
  id: string;
  subject: string;
  to: string[];
  text: string;
  html: string;
  created: string;
}

function mailpitUrl(): string {
  return process.env.MAILPIT_URL ?? inject("mailpitUrl");
}

interface Summary {
  ID: string;
  /** The Message-ID header, without its angle brackets. */
  MessageID: string;
  Subject: string;
  Created: string;
  To: { Address: string }[];
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${mailpitUrl()}${path}`);
  if (!res.ok) throw new Error(`Mailpit ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every message to `address`, newest first (subjects only). */
export async function mailsTo(address: string): Promise<Summary[]> {
  const query = encodeURIComponent(`to:"${address}"`);
  const found = await getJson<{ messages: Summary[] }>(`/api/v1/search?query=${query}&limit=200`);
  return found.messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === address.toLowerCase()));
}

async function fullMessage(summary: Summary): Promise<MailMessage> {
  const full = await getJson<{ ID: string; Subject: string; Text: string; HTML: string; Date: string; To: { Address: string }[] }>(
    `/api/v1/message/${summary.ID}`,
  );
  return {
    id: full.ID,
    subject: full.Subject,
    to: full.To.map((t) => t.Address),
    text: full.Text,
    html: full.HTML,
    created: summary.Created,
  };
}

/** Every message to `address` with this Message-ID (`<…>` as sent), in full: one for an email that arrived once. */
export async function mailsWithMessageId(address: string, messageId: string): Promise<MailMessage[]> {
  const hits = (await mailsTo(address)).filter((m) => `<${m.MessageID}>` === messageId);
  return Promise.all(hits.map(fullMessage));
}

/**
 * The newest message to `address` (matching `subject`, received after `after`), waiting up to
 * `timeoutMs` for it to arrive.
 */
export async function latestMail(address: string, opts: { subject?: RegExp; after?: Date; timeoutMs?: number } = {}): Promise<MailMessage> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const hit = (await mailsTo(address)).find(
      (m) => (!opts.subject || opts.subject.test(m.Subject)) && (!opts.after || new Date(m.Created) >= opts.after),
    );
    if (hit) return fullMessage(hit);
    if (Date.now() > deadline) throw new Error(`no email to ${address}${opts.subject ? ` matching ${opts.subject}` : ""} arrived`);
    await sleep(100);
  }
}

/** The first link in the message's text whose URL contains `fragment`. */
export function linkIn(mail: MailMessage, fragment: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(fragment));
  if (!link) throw new Error(`no link containing ${fragment} in "${mail.subject}":\n${mail.text}`);
  return link;
}
