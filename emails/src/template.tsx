// What a template is (subject, inbox preview, why it was sent, its content) and the footers.
import type { ReactNode } from "react";
import { FooterLink, FooterText } from "./layout.js";
import type { Brand, EmailKind, EmailProps } from "./messages.js";

export interface ContentProps<K extends EmailKind> {
  props: EmailProps[K];
  brand: Brand;
}

export interface Template<K extends EmailKind> {
  subject(props: EmailProps[K], brand: Brand): string;
  /** The line an inbox shows after the subject. */
  preview(props: EmailProps[K], brand: Brand): string;
  /** Why the recipient gets this email: the footer's first sentence. */
  reason(props: EmailProps[K], brand: Brand): string;
  Content(p: ContentProps<K>): ReactNode;
}

export type Templates = { [K in EmailKind]: Template<K> };

/** A customer as a merchant reads it: "Jane Doe (jane@example.com)" or the address alone. */
export function customerLabel(name: string | null, email: string): string {
  return name ? `${name} (${email})` : email;
}

/** The footer: why the email came, and where the recipient changes it. */
export function Footer({ props, reason }: { props: EmailProps[EmailKind]; reason: string }) {
  if ("notification_settings_url" in props) {
    return (
      <FooterText>
        {reason} You can mute these notifications in your{" "}
        <FooterLink href={props.notification_settings_url}>notification settings</FooterLink>.
      </FooterText>
    );
  }
  return (
    <>
      <FooterText>
        {reason} It was sent to {props.customer_email}.
      </FooterText>
      {"preferences_url" in props ? (
        <FooterText>
          This reminder is optional: you can turn it off in your <FooterLink href={props.preferences_url}>email preferences</FooterLink>.
        </FooterText>
      ) : null}
      <FooterText>
        Your orders, subscriptions and benefits are in the <FooterLink href={props.portal_url}>customer portal</FooterLink>.
      </FooterText>
    </>
  );
}
