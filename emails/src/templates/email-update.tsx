// The link that confirms a portal customer's new email address: sent to the new address, it
// names who asked (their current address), carries the code and says how long it works.
import { formatDateTime } from "../format.js";
import { Action, P, TextLink, Title } from "../layout.js";
import { customerLabel, type Template } from "../template.js";

export const customerEmailUpdateVerification: Template<"customer_email_update_verification"> = {
  subject: (_props, brand) => `Verify your new email address for ${brand.name}`,
  preview: (props, brand) => `Confirm ${props.customer_email} as your email with ${brand.name}.`,
  reason: (props, brand) =>
    `You receive this email because ${customerLabel(props.customer_name, props.current_email)} asked to use this address with ${brand.name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>Verify your new email address</Title>
      <P>
        {customerLabel(props.customer_name, props.current_email)} asked to use {props.customer_email} as their email address with{" "}
        {brand.name}. Open the link below to confirm it.
      </P>
      <Action href={props.verify_url} brand={brand}>
        Verify my new email address
      </Action>
      <P>
        The link works once, for {props.expires_in_minutes} minutes (until {formatDateTime(props.expires_at)}). If the button does not work,
        open <TextLink href={props.verify_url}>{props.verify_url}</TextLink>
      </P>
      <P>If you did not ask for this, ignore this email: the address stays {props.current_email}.</P>
    </>
  ),
};
