// Outgoing email: one nodemailer transport over SMTP_URL, built on first use; every email the
// server sends goes through sendMail. With SMTP_URL unset, sendMail throws MailNotConfigured, so a
// flow that needs an email fails loudly. `make run` and the test suites point it at Mailpit.
import nodemailer, { type Transporter } from "nodemailer";
import { setting } from "../config.js";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The Message-ID (`<id@host>`); nodemailer makes one when not given. */
  messageId?: string;
  headers?: Record<string, string>;
}

export class MailNotConfigured extends Error {
  constructor() {
    super("SMTP_URL is not set: there is no mail server to send email through.");
  }
}

/** The From address of every email (MAIL_FROM, default "Borealis <no-reply@borealis.localhost>"). */
export const MAIL_FROM = setting("MAIL_FROM");

let transport: { url: string; transporter: Transporter } | undefined;

function transporterFor(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    // Bounded waits: a send runs in an activity with its own timeout (workflows/workflows/email-send.ts).
    transport = {
      url,
      transporter: nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    };
  }
  return transport.transporter;
}

/** Sends one email through SMTP_URL (read at send time, so a test's mail server is the one used); returns its Message-ID. */
export async function sendMail(mail: Mail): Promise<{ messageId: string }> {
  const url = setting("SMTP_URL");
  if (!url) throw new MailNotConfigured();
  const info: { messageId: string } = await transporterFor(url).sendMail({
    from: MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: mail.headers,
  });
  return { messageId: info.messageId };
}
