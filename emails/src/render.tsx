// renderEmail: a message to its subject, HTML and plain-text parts, with react-email.
import { render, toPlainText } from "@react-email/render";
import { Layout, ROW_LABEL } from "./layout.js";
import type { Brand, EmailKind, EmailMessage, EmailProps, RenderedEmail } from "./messages.js";
import { Footer, type Template } from "./template.js";
import { TEMPLATES } from "./templates/index.js";

/** The part of html-to-text's builder the label formatter uses. */
interface TextBuilder {
  addInline(text: string): void;
}

/**
 * The text part: headings as written (html-to-text upper-cases them by default), and a row's
 * label followed by ": " so "Total: $19.20" does not read "Total$19.20".
 */
const TEXT_OPTIONS = {
  formatters: {
    label: (elem: { children: unknown[] }, walk: (nodes: unknown[], builder: TextBuilder) => void, builder: TextBuilder) => {
      walk(elem.children, builder);
      builder.addInline(": ");
    },
  },
  selectors: [
    { selector: "h1", options: { uppercase: false } },
    { selector: "h2", options: { uppercase: false } },
    { selector: `td.${ROW_LABEL}`, format: "label" },
  ],
};

/** One line: a subject is a header, and names in it come from the organization and its customers. */
const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();

/** A sentence ending in a name that ends in a period ("from Demo Inc.") keeps one period. */
const oneStop = (sentence: string) => sentence.replace(/\.{2,}$/, ".");

async function renderKind<K extends EmailKind>(kind: K, brand: Brand, props: EmailProps[K]): Promise<RenderedEmail> {
  const template: Template<K> = TEMPLATES[kind];
  const subject = oneLine(template.subject(props, brand));
  const Content = template.Content;
  const element = (
    <Layout
      brand={brand}
      subject={subject}
      preview={template.preview(props, brand)}
      footer={<Footer props={props} reason={oneStop(template.reason(props, brand))} />}
    >
      <Content props={props} brand={brand} />
    </Layout>
  );
  const html = await render(element);
  // What render's plainText option does, without rendering the element a second time.
  return { subject, html, text: toPlainText(html, TEXT_OPTIONS) };
}

/** The subject, the HTML and the plain-text alternative of one email. */
export function renderEmail(message: EmailMessage): Promise<RenderedEmail> {
  return renderKind(message.kind, message.brand, message.props);
}
