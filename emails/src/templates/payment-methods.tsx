// A saved card about to expire.
import { Action, Greeting, P, Title } from "../layout.js";
import type { Brand } from "../messages.js";
import type { Template } from "../template.js";

/** The button to the portal's payment method page. */
export function UpdatePaymentMethod({ href, brand }: { href: string; brand: Brand }) {
  return (
    <Action href={href} brand={brand}>
      Update your payment method
    </Action>
  );
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const cardName = (brand: string) => (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : "Card");

export const paymentMethodExpirationReminder: Template<"payment_method_expiration_reminder"> = {
  subject: (props) => `Your card ending in ${props.last4} expires soon`,
  preview: (props) => `It expires at the end of ${MONTHS[props.exp_month - 1]} ${props.exp_year}.`,
  reason: (_props, brand) => `You receive this email because your card is saved for your subscriptions with ${brand.name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>Your card expires soon</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your {cardName(props.card_brand)} card ending in {props.last4} expires at the end of {MONTHS[props.exp_month - 1]} {props.exp_year}.
        Update it to keep your subscriptions running without interruption.
      </P>
      <UpdatePaymentMethod href={props.update_payment_method_url} brand={brand} />
    </>
  ),
};
