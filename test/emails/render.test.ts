// The email templates (emails/): every kind renders a subject, HTML and a plain-text part from
// its sample message; every link given in props reaches both parts; money is formatted in its
// own currency; what customers and merchants typed stays text.
import { describe, expect, it } from "vitest";
import {
  EMAIL_KINDS,
  NON_ESSENTIAL_EMAIL_KINDS,
  renderEmail,
  SAMPLE_BRAND,
  sampleMessage,
  type GrantedBenefit,
} from "../../emails/src/index.js";
import { formatMoney, textOn } from "../../emails/src/format.js";

/** Every absolute URL among the props, at any depth. */
function urlsIn(value: unknown): string[] {
  if (typeof value === "string") return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(urlsIn);
  return [];
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

describe("renderEmail", () => {
  it.each(EMAIL_KINDS)("%s renders a subject, HTML and text with every link of its props", async (kind) => {
    const message = sampleMessage(kind, { name: "Acme", logo_url: "https://cdn.example.com/acme.png", color: "#0b6e4f" });
    const { subject, html, text } = await renderEmail(message);

    expect(subject.length).toBeGreaterThan(5);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(html).toContain('<html dir="ltr" lang="en">');
    expect(html).toContain(`<title>${escapeHtml(subject)}</title>`);
    expect(html).toContain('src="https://cdn.example.com/acme.png"');
    expect(html).toContain("#0b6e4f");
    expect(text).toContain("Acme");
    expect(text).not.toMatch(/<[a-z]/i);
    // The heading reads in the text part as written (not upper-cased).
    const heading = /<h1[^>]*>(.*?)<\/h1>/
      .exec(html)?.[1]
      .replace(/<!-- -->/g, "")
      .replace(/&#x27;/g, "'");
    expect(heading).toBeTruthy();
    expect(text).toContain(`\n${heading}\n`);

    const urls = urlsIn(message.props);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(html, url).toContain(escapeHtml(url));
      expect(text, url).toContain(url);
    }
  });

  it("names the email in its subject", async () => {
    const subjects = await Promise.all(
      (["order_confirmation", "subscription_payment_failed", "subscription_renewal_reminder", "notification_new_sale"] as const).map(
        async (kind) => (await renderEmail(sampleMessage(kind))).subject,
      ),
    );
    expect(subjects).toEqual([
      "Your receipt from Acme",
      "Payment failed for Acme Pro",
      "Your Acme Pro (yearly) subscription renews on March 10, 2027",
      "New sale: Acme Pro for $19.20",
    ]);
  });

  it("keeps a subject on one line whatever the names hold", async () => {
    const message = sampleMessage("subscription_payment_failed");
    message.props.subscription.product_name = "Acme\r\nBcc: victim@example.com";
    expect((await renderEmail(message)).subject).toBe("Payment failed for Acme Bcc: victim@example.com");
  });

  it("shows a receipt's line items, discount, tax with its rate, total and invoice", async () => {
    const { html, text } = await renderEmail(sampleMessage("order_confirmation"));
    for (const line of [
      "Acme Pro (monthly): $20.00",
      "Subtotal: $20.00",
      "Discount (LAUNCH20): −$4.00",
      "VAT (20%): $3.20",
      "Total: $19.20",
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toContain("Invoice ACME-0042, March 3, 2027");
    expect(text).toContain("Download the invoice (PDF) https://pay.example.com/acme/portal/orders/");
    expect(html).toContain("VAT (20%)");

    // No discount, no tax: neither row, nor a subtotal; tax without a label or rate is "Tax".
    const plain = sampleMessage("order_confirmation");
    Object.assign(plain.props.order, {
      discount_amount: 0,
      discount_name: null,
      tax_amount: 0,
      tax_label: null,
      tax_rate: null,
      total_amount: 2000,
    });
    const plainText = (await renderEmail(plain)).text;
    expect(plainText).not.toMatch(/Subtotal|Discount|Tax|VAT/);
    expect(plainText).toContain("Total: $20.00");
    Object.assign(plain.props.order, { tax_amount: 178, tax_rate: 8.875, total_amount: 2178 });
    expect((await renderEmail(plain)).text).toContain("Tax (8.875%): $1.78");
    // The built-in calculator's label names its rates already: they are not repeated.
    Object.assign(plain.props.order, { tax_label: "VAT 19% (Germany)", tax_rate: 19, tax_amount: 380, total_amount: 2380 });
    const german = (await renderEmail(plain)).text;
    expect(german).toContain("VAT 19% (Germany): $3.80");
    expect(german).not.toContain("(19%)");
  });

  it("ends the footer's sentence once when a name ends in a period", async () => {
    const { text } = await renderEmail(sampleMessage("order_confirmation", { name: "Demo Inc.", logo_url: null, color: "#0b6e4f" }));
    expect(text).toContain("from Demo Inc. It was sent to");
    expect(text).not.toContain("Inc..");
  });

  it("tells a trial, a last attempt and a partial refund apart", async () => {
    const trial = sampleMessage("subscription_confirmation");
    Object.assign(trial.props, { trial_end: "2027-03-17T09:30:00Z", order: null });
    const trialText = (await renderEmail(trial)).text;
    expect(trialText).toContain("Your free trial runs until March 17, 2027; then it continues at $20.00 / month.");
    expect(trialText).not.toContain("Total");

    const last = sampleMessage("subscription_payment_failed");
    last.props.next_attempt_at = null;
    expect((await renderEmail(last)).text).toContain("That was our last attempt");

    const partial = sampleMessage("order_refunded");
    partial.props.refund_amount = 500;
    expect((await renderEmail(partial)).text).toContain("We refunded $5.00 of your $19.20 payment for Acme Pro (invoice ACME-0042).");
    expect((await renderEmail(sampleMessage("order_refunded"))).text).toContain("We refunded your payment of $19.20 for Acme Pro");

    const quarterly = sampleMessage("notification_new_subscription");
    quarterly.props.recurring_interval_count = 3;
    expect((await renderEmail(quarterly)).text).toContain("subscribed to Acme Pro at $20.00 every 3 months.");
  });

  it("formats money from minor units in the record's own currency", async () => {
    expect(formatMoney(1920, "usd")).toBe("$19.20");
    expect(formatMoney(1999, "EUR")).toBe("€19.99");
    expect(formatMoney(1500, "jpy")).toBe("¥1,500");
    expect(formatMoney(1234, "kwd")).toBe("KWD\u00a01.234");
    expect(formatMoney(0, "usd")).toBe("$0.00");

    const message = sampleMessage("notification_new_sale");
    Object.assign(message.props, { amount: 4500, currency: "jpy" });
    const { subject, html, text } = await renderEmail(message);
    expect(subject).toBe("New sale: Acme Pro for ¥4,500");
    expect(html).toContain("¥4,500");
    expect(text).toContain("¥4,500");
  });

  it("keeps what customers and merchants typed as text", async () => {
    const script = "<script>alert(1)</script>";
    const message = sampleMessage("notification_subscription_cancellation", {
      name: 'Evil "Corp" <b>',
      logo_url: null,
      color: "red;background:url(https://evil.example/x)",
    });
    Object.assign(message.props, { customer_name: script, comment: '"><img src=x onerror=alert(2)>' });
    const { subject, html, text } = await renderEmail(message);
    expect(html).not.toContain(script);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Evil &quot;Corp&quot; &lt;b&gt;");
    // A colour that is not #rrggbb never reaches a style attribute: the default stands in.
    expect(html).not.toContain("evil.example");
    expect(html).toContain("#0062ff");
    // The text part is plain text: it reads as typed.
    expect(text).toContain(`${script} (jane@example.com) canceled`);
    expect(subject).toBe("Subscription canceled: Acme Pro");
  });

  it("shows each benefit itself: the key, the files, the invitation, Discord, the note", async () => {
    const render = async (benefit: GrantedBenefit) => {
      const message = sampleMessage("benefit_granted");
      message.props.benefit = benefit;
      return renderEmail(message);
    };
    const key = await render({
      type: "license_keys",
      description: "Acme Pro license",
      key: "ACME-1234-ABCD",
      expires_at: "2028-01-31T00:00:00Z",
      activations_limit: null,
    });
    expect(key.text).toContain("ACME-1234-ABCD");
    expect(key.html).toContain("ACME-1234-ABCD");
    expect(key.text).toContain("Expires: January 31, 2028");
    expect(key.text).not.toContain("Activations");

    const files = await render({
      type: "downloadables",
      description: "Acme Pro downloads",
      files: [
        { name: "acme-pro-2.1.dmg", size: 48_200_000, url: "https://pay.example.com/acme/portal/files/a1" },
        { name: "acme-pro-2.1.exe", size: 51_000_000, url: "https://pay.example.com/acme/portal/files/b2" },
      ],
    });
    expect(files.text).toContain("acme-pro-2.1.dmg https://pay.example.com/acme/portal/files/a1 (48.2 MB)");
    expect(files.text).toContain("acme-pro-2.1.exe https://pay.example.com/acme/portal/files/b2 (51 MB)");

    const github = await render({
      type: "github_repository",
      description: "Source access",
      repository_owner: "acme",
      repository_name: "pro",
      invitation_url: "https://github.com/acme/pro/invitations",
    });
    expect(github.text).toContain("GitHub repository acme/pro");
    expect(github.text).toContain("Accept the invitation https://github.com/acme/pro/invitations");

    const discord = await render({
      type: "discord",
      description: "Community",
      guild_name: "Acme Lounge",
      connect_url: "https://pay.example.com/acme/portal/discord",
    });
    expect(discord.text).toContain("Join Acme Lounge");
    expect(discord.text).toContain("Connect Discord https://pay.example.com/acme/portal/discord");

    const credit = await render({ type: "meter_credit", description: "API credits", meter_name: "API calls", units: 10000 });
    expect(credit.text).toContain("10000 API calls units were credited");

    const custom = await render({
      type: "custom",
      description: "Onboarding call",
      note: "Book your call at cal.example.com.\n\nBring <your> questions.",
    });
    expect(custom.text).toContain("A note from Acme");
    expect(custom.text).toContain("Book your call at cal.example.com.");
    expect(custom.html).toContain("Bring &lt;your&gt; questions.");
  });

  it("asks the new address to confirm an email change: who asked, the link with its code, how long it works", async () => {
    const { subject, html, text } = await renderEmail(sampleMessage("customer_email_update_verification"));
    expect(subject).toBe("Verify your new email address for Acme");
    expect(text).toContain("Jane Doe (jane@example.com) asked to use jane.doe@work.example.com as their email address with Acme.");
    expect(text).toContain("The link works once, for 30 minutes (until March 8, 2027 at 9:30 AM UTC).");
    expect(text).toContain("If you did not ask for this, ignore this email: the address stays jane@example.com.");
    expect(text).toContain("You receive this email because Jane Doe (jane@example.com) asked to use this address with Acme.");
    expect(text).toContain("It was sent to jane.doe@work.example.com.");
    expect(html).toContain("verify-email?token=polar_cev_");
  });

  it("says in the footer why the email came, and where to turn off the optional ones", async () => {
    for (const kind of EMAIL_KINDS) {
      const { text } = await renderEmail(sampleMessage(kind));
      const optional = (NON_ESSENTIAL_EMAIL_KINDS as readonly string[]).includes(kind);
      expect(text, kind).toMatch(/You receive this (email|notification) because/);
      expect(text.includes("email preferences"), kind).toBe(optional);
      expect(text.includes("mute these notifications"), kind).toBe(
        kind.startsWith("notification_") || kind === "webhook_endpoint_disabled",
      );
    }
  });

  it("samples the console's links as the console routes them", () => {
    const links = EMAIL_KINDS.flatMap((kind) => urlsIn(sampleMessage(kind, SAMPLE_BRAND).props)).filter((u) => u.includes("/dashboard"));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const url = new URL(link);
      expect(url.pathname + url.hash).toMatch(
        /^\/dashboard\/(settings\/emails|(orders|subscriptions|webhooks-endpoints)\/[0-9a-f-]+\/show)$/,
      );
    }
  });

  it("writes a button in the colour that reads best on the brand's", () => {
    expect(textOn("#0062ff")).toBe("#ffffff");
    expect(textOn("#ffd23f")).toBe("#111111");
    expect(textOn("not a colour")).toBe("#ffffff");
  });
});
