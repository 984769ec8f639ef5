// renderEmail: a message to its subject, HTML and plain-text parts, with react-email.
import { render } from "@react-email/render";
import { createElement } from "react";
import type { EmailMessage, RenderedEmail } from "./messages.js";
import { EmailDocument, subjectOf } from "./templates.js";

/** The subject, the HTML and the plain-text alternative of one email. */
export async function renderEmail(message: EmailMessage): Promise<RenderedEmail> {
  const subject = subjectOf(message);
  const element = createElement(EmailDocument, { message, subject });
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject, html, text };
}
