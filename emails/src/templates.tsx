// The templates: one document per message kind.
import { Body, Container, Head, Heading, Html, Text } from "@react-email/components";
import type { EmailMessage } from "./messages.js";

export function subjectOf(message: EmailMessage): string {
  return `${message.brand.name}: ${message.kind.replace(/_/g, " ")}`;
}

export function EmailDocument({ message, subject }: { message: EmailMessage; subject: string }) {
  return (
    <Html lang="en">
      <Head>
        <title>{subject}</title>
      </Head>
      <Body>
        <Container>
          <Heading as="h1">{message.brand.name}</Heading>
          <Text>{subject}</Text>
        </Container>
      </Body>
    </Html>
  );
}
