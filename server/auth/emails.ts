// The emails of the authentication layer: plain text with an HTML twin, one link each.
import type { Mail } from "../kit/mail.js";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mail(to: string, subject: string, lines: string[], link: { label: string; url: string }): Mail {
  const text = [...lines, "", `${link.label}: ${link.url}`, "", "If you did not ask for this, ignore this email."].join("\n");
  const html =
    lines.map((l) => `<p>${escape(l)}</p>`).join("") +
    `<p><a href="${escape(link.url)}">${escape(link.label)}</a></p><p>If you did not ask for this, ignore this email.</p>`;
  return { to, subject, text, html };
}

export function verificationEmail(p: { email: string; name: string; url: string }): Mail {
  return mail(
    p.email,
    "Verify your email address",
    [`Hello ${p.name},`, "Confirm that this is your email address to finish signing up to Borealis."],
    {
      label: "Verify your email",
      url: p.url,
    },
  );
}

export function resetPasswordEmail(p: { email: string; name: string; url: string }): Mail {
  return mail(p.email, "Reset your password", [`Hello ${p.name},`, "Someone asked to reset the password of your Borealis account."], {
    label: "Choose a new password",
    url: p.url,
  });
}

export function invitationEmail(p: {
  email: string;
  role: string;
  organization: { name: string };
  inviter: { user: { name: string; email: string } };
  acceptUrl: string;
}): Mail {
  return mail(
    p.email,
    `${p.inviter.user.name} invited you to ${p.organization.name} on Borealis`,
    [`${p.inviter.user.name} (${p.inviter.user.email}) invited you to join ${p.organization.name} as ${p.role}.`],
    { label: "Accept the invitation", url: p.acceptUrl },
  );
}
