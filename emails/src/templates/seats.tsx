// An invitation to claim a seat of a team's subscription: who invited, to what, and the claim link.
import { formatDate } from "../format.js";
import { Action, P, Title } from "../layout.js";
import type { Template } from "../template.js";

export const seatInvitation: Template<"seat_invitation"> = {
  subject: (props, brand) => `A seat of ${props.product_name} from ${brand.name} is yours to claim`,
  preview: (props) => `${props.inviter} gave you a seat of ${props.product_name}.`,
  reason: (props) => `You receive this email because ${props.inviter} assigned you a seat of ${props.product_name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>You have a seat of {props.product_name}</Title>
      <P>
        {props.inviter} invited you to {props.product_name} from {brand.name}. Claim your seat to get its benefits in the customer portal.
      </P>
      <Action href={props.claim_url} brand={brand}>
        Claim your seat
      </Action>
      {props.expires_at ? <P>This invitation can be claimed until {formatDate(props.expires_at)}.</P> : null}
    </>
  ),
};
