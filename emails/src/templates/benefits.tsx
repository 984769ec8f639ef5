// A benefit granted: what the customer got and how to use it, per benefit type.
import { Section } from "@react-email/components";
import { formatBytes, formatDate } from "../format.js";
import { Action, Code, Greeting, P, Rows, Subtitle, TextLink, Title } from "../layout.js";
import type { Brand, GrantedBenefit } from "../messages.js";
import type { Template } from "../template.js";

function BenefitDetails({ benefit, brand }: { benefit: GrantedBenefit; brand: Brand }) {
  switch (benefit.type) {
    case "license_keys": {
      const rows: [string, string][] = [["Expires", benefit.expires_at ? formatDate(benefit.expires_at) : "Never"]];
      if (benefit.activations_limit !== null) rows.push(["Activations", `Up to ${benefit.activations_limit}`]);
      return (
        <>
          <P>Your license key:</P>
          <Code>{benefit.key}</Code>
          <Rows rows={rows} />
        </>
      );
    }
    case "downloadables":
      return (
        <>
          <P>Your files are ready to download:</P>
          <Section>
            {benefit.files.map((file) => (
              <P key={file.url}>
                <TextLink href={file.url}>{file.name}</TextLink> ({formatBytes(file.size)})
              </P>
            ))}
          </Section>
        </>
      );
    case "github_repository":
      return (
        <>
          <P>
            You are invited to the GitHub repository {benefit.repository_owner}/{benefit.repository_name}. Accept the invitation on GitHub,
            signed in with the account you connected, to get access.
          </P>
          <Action href={benefit.invitation_url} brand={brand}>
            Accept the invitation
          </Action>
        </>
      );
    case "discord":
      return (
        <>
          <P>
            Join {benefit.guild_name ?? "the Discord server"}: connect your Discord account in the customer portal, and you are added to the
            server with your role.
          </P>
          <Action href={benefit.connect_url} brand={brand}>
            Connect Discord
          </Action>
        </>
      );
    case "meter_credit":
      return (
        <P>
          {benefit.units} {benefit.meter_name} units were credited to your account.
        </P>
      );
    case "custom":
      return benefit.note ? (
        <>
          <Subtitle>A note from {brand.name}</Subtitle>
          {benefit.note.split(/\n{2,}/).map((paragraph, i) => (
            <P key={i}>{paragraph}</P>
          ))}
        </>
      ) : null;
  }
}

export const benefitGranted: Template<"benefit_granted"> = {
  subject: (props, brand) => `Your benefit from ${brand.name}: ${props.benefit.description}`,
  preview: (props) => `${props.benefit.description}, with your purchase of ${props.product_name}.`,
  reason: (props, brand) => `You receive this email because you bought ${props.product_name} from ${brand.name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>{props.benefit.description}</Title>
      <Greeting name={props.customer_name} />
      <P>This comes with your purchase of {props.product_name}.</P>
      <BenefitDetails benefit={props.benefit} brand={brand} />
      <P>
        All your benefits stay in the customer portal: <TextLink href={props.benefits_url}>see your benefits</TextLink>.
      </P>
    </>
  ),
};
