// The one layout every email shares (the organization's name, logo and colour, a footer saying
// why the email came) and the small pieces templates are built from.
import { Body, Button, Column, Container, Head, Heading, Hr, Html, Img, Link, Preview, Row, Section, Text } from "@react-email/components";
import type { CSSProperties, ReactNode } from "react";
import { brandColor, textOn } from "./format.js";
import type { Brand } from "./messages.js";

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const INK = "#1f2937";
const MUTED = "#4b5563";

const styles = {
  body: { margin: 0, padding: "24px 0", backgroundColor: "#f3f4f6", fontFamily: FONT, color: INK },
  container: { width: "100%", maxWidth: "600px", backgroundColor: "#ffffff", borderRadius: "8px" },
  header: { padding: "20px 24px 0" },
  logo: { display: "inline-block", verticalAlign: "middle", marginRight: "12px", borderRadius: "6px" },
  brandName: { display: "inline-block", verticalAlign: "middle", margin: 0, fontSize: "18px", fontWeight: 600 },
  content: { padding: "8px 24px 16px" },
  heading: { fontSize: "22px", lineHeight: "30px", fontWeight: 700, margin: "16px 0 8px" },
  subheading: { fontSize: "16px", lineHeight: "24px", fontWeight: 600, margin: "20px 0 4px" },
  paragraph: { fontSize: "15px", lineHeight: "24px", margin: "12px 0", overflowWrap: "anywhere" },
  button: { display: "inline-block", padding: "12px 20px", borderRadius: "6px", fontSize: "15px", fontWeight: 600, textDecoration: "none" },
  link: { color: INK, textDecoration: "underline", overflowWrap: "anywhere" },
  hr: { borderColor: "#e5e7eb", margin: 0 },
  rule: { padding: "0 24px" },
  footer: { padding: "12px 24px 20px" },
  footerText: { fontSize: "13px", lineHeight: "20px", color: MUTED, margin: "8px 0" },
  cell: { fontSize: "15px", lineHeight: "22px", padding: "6px 0", verticalAlign: "top" },
  amount: {
    fontSize: "15px",
    lineHeight: "22px",
    padding: "6px 0 6px 12px",
    textAlign: "right",
    whiteSpace: "nowrap",
    verticalAlign: "top",
  },
  code: {
    display: "block",
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    fontSize: "15px",
    lineHeight: "22px",
    padding: "12px",
    margin: "8px 0",
    backgroundColor: "#f3f4f6",
    borderRadius: "6px",
    overflowWrap: "anywhere",
  },
} satisfies Record<string, CSSProperties>;

export interface LayoutProps {
  brand: Brand;
  subject: string;
  /** The line an inbox shows after the subject. */
  preview: string;
  footer: ReactNode;
  children: ReactNode;
}

export function Layout({ brand, subject, preview, footer, children }: LayoutProps) {
  const color = brandColor(brand.color);
  return (
    <Html lang="en">
      <Head>
        <title>{subject}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={Object.assign({}, styles.container, { borderTop: `4px solid ${color}` })}>
          <Section style={styles.header}>
            {brand.logo_url ? <Img src={brand.logo_url} alt="" width="40" height="40" style={styles.logo} /> : null}
            <Text style={styles.brandName}>{brand.name}</Text>
          </Section>
          <Section style={styles.content}>{children}</Section>
          <Section style={styles.rule}>
            <Hr style={styles.hr} />
          </Section>
          <Section style={styles.footer}>{footer}</Section>
        </Container>
      </Body>
    </Html>
  );
}

export function Title({ children }: { children: ReactNode }) {
  return (
    <Heading as="h1" style={styles.heading}>
      {children}
    </Heading>
  );
}

export function Subtitle({ children }: { children: ReactNode }) {
  return (
    <Heading as="h2" style={styles.subheading}>
      {children}
    </Heading>
  );
}

export function P({ children }: { children: ReactNode }) {
  return <Text style={styles.paragraph}>{children}</Text>;
}

/** "Hi Jane," or "Hi," when the name is unknown. */
export function Greeting({ name }: { name: string | null }) {
  return <P>{name ? `Hi ${name},` : "Hi,"}</P>;
}

/** A call to action in the brand's colour. */
export function Action({ href, brand, children }: { href: string; brand: Brand; children: ReactNode }) {
  const color = brandColor(brand.color);
  return (
    <Section style={{ margin: "20px 0" }}>
      <Button href={href} style={Object.assign({}, styles.button, { backgroundColor: color, color: textOn(color) })}>
        {children}
      </Button>
    </Section>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={styles.link}>
      {children}
    </Link>
  );
}

/** Something to copy as it is (a license key). */
export function Code({ children }: { children: ReactNode }) {
  return <Text style={styles.code}>{children}</Text>;
}

/** The class of a row's label cell (the text part puts ": " after it). */
export const ROW_LABEL = "label";

/** Labelled values, one a row, the value on the right (amounts, dates). */
export function Rows({ rows, strongLast = false }: { rows: [string, string][]; strongLast?: boolean }) {
  return (
    <Section>
      {rows.map(([label, value], i) => {
        const strong = strongLast && i === rows.length - 1;
        const weight = strong ? { fontWeight: 700, borderTop: "1px solid #e5e7eb" } : {};
        return (
          <Row key={i}>
            <Column className={ROW_LABEL} style={Object.assign({}, styles.cell, weight)}>
              {label}
            </Column>
            <Column style={Object.assign({}, styles.amount, weight)}>{value}</Column>
          </Row>
        );
      })}
    </Section>
  );
}

export function FooterText({ children }: { children: ReactNode }) {
  return <Text style={styles.footerText}>{children}</Text>;
}

export function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={Object.assign({}, styles.link, { color: MUTED })}>
      {children}
    </Link>
  );
}
