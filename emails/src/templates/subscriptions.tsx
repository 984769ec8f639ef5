// Subscriptions: started, renewed, reminded, failed, past due, canceled, resumed, ended, changed.
import { formatDate, formatMoney, formatPrice } from "../format.js";
import { Action, Greeting, P, Rows, TextLink, Title } from "../layout.js";
import type { Brand, SubscriptionSummary } from "../messages.js";
import { Receipt } from "../receipt.js";
import { UpdatePaymentMethod } from "./payment-methods.js";
import type { Template } from "../template.js";

const price = (s: SubscriptionSummary) => formatPrice(s.amount, s.currency, s.recurring_interval, s.recurring_interval_count);

const subscriberReason = (s: SubscriptionSummary, brandName: string) =>
  `You receive this email because you subscribe to ${s.product_name} from ${brandName}.`;

/** "It renews on March 3, 2027 at $20.00 / month." */
function renewalLine(s: SubscriptionSummary): string {
  return s.current_period_end ? `It renews on ${formatDate(s.current_period_end)} at ${price(s)}.` : `It renews at ${price(s)}.`;
}

/** The button to the subscription in the portal. */
function Manage({
  subscription,
  brand,
  children = "Manage your subscription",
}: {
  subscription: SubscriptionSummary;
  brand: Brand;
  children?: string;
}) {
  return (
    <Action href={subscription.manage_url} brand={brand}>
      {children}
    </Action>
  );
}

/** After a failed payment: the button to update the card, and the way to change or cancel instead. */
function PayOrManage({ href, subscription, brand }: { href: string; subscription: SubscriptionSummary; brand: Brand }) {
  return (
    <>
      <UpdatePaymentMethod href={href} brand={brand} />
      <P>
        To change or cancel your plan instead, <TextLink href={subscription.manage_url}>manage your subscription</TextLink>.
      </P>
    </>
  );
}

export const subscriptionConfirmation: Template<"subscription_confirmation"> = {
  subject: (props) => `Your subscription to ${props.subscription.product_name} has started`,
  preview: (props) => `Welcome to ${props.subscription.product_name}.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Welcome to {props.subscription.product_name}</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your subscription to {props.subscription.product_name} has started.{" "}
        {props.trial_end
          ? `Your free trial runs until ${formatDate(props.trial_end)}; then it continues at ${price(props.subscription)}.`
          : renewalLine(props.subscription)}
      </P>
      {props.order ? <Receipt order={props.order} brand={brand} /> : null}
      <P>
        You can change or cancel it at any time: <TextLink href={props.subscription.manage_url}>manage your subscription</TextLink>.
      </P>
    </>
  ),
};

export const subscriptionCycled: Template<"subscription_cycled"> = {
  subject: (props) => `Your ${props.subscription.product_name} subscription has renewed`,
  preview: (props) => `Receipt for ${props.subscription.product_name}: ${formatMoney(props.order.total_amount, props.order.currency)}.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription has renewed</Title>
      <Greeting name={props.customer_name} />
      <P>
        Thank you for staying with {brand.name}. Here is your receipt for the new period of {props.subscription.product_name}.
      </P>
      <Receipt order={props.order} brand={brand} />
      <P>
        {renewalLine(props.subscription)} <TextLink href={props.subscription.manage_url}>Manage your subscription</TextLink>.
      </P>
    </>
  ),
};

export const subscriptionRenewalReminder: Template<"subscription_renewal_reminder"> = {
  subject: (props) => `Your ${props.subscription.product_name} subscription renews on ${formatDate(props.renews_at)}`,
  preview: (props) => `${price(props.subscription)}, charged on ${formatDate(props.renews_at)}.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription renews soon</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your {props.subscription.product_name} subscription renews on {formatDate(props.renews_at)} at {price(props.subscription)}. Your
        payment method on file is charged then: there is nothing to do if you wish to continue.
      </P>
      <Manage subscription={props.subscription} brand={brand} />
    </>
  ),
};

export const subscriptionPaymentFailed: Template<"subscription_payment_failed"> = {
  subject: (props) => `Payment failed for ${props.subscription.product_name}`,
  preview: (props) => `We could not charge ${formatMoney(props.amount, props.currency)}: please update your payment method.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>We couldn't process your payment</Title>
      <Greeting name={props.customer_name} />
      <P>
        The payment of {formatMoney(props.amount, props.currency)} for your {props.subscription.product_name} subscription failed.{" "}
        {props.next_attempt_at
          ? `We will try again on ${formatDate(props.next_attempt_at)}. Update your payment method to keep your access.`
          : "That was our last attempt: update your payment method to keep your access."}
      </P>
      <Rows
        rows={[
          ["Amount due", formatMoney(props.amount, props.currency)],
          ["Attempt", String(props.attempt_number)],
        ]}
      />
      <PayOrManage href={props.update_payment_method_url} subscription={props.subscription} brand={brand} />
    </>
  ),
};

export const subscriptionPastDue: Template<"subscription_past_due"> = {
  subject: (props) => `Your ${props.subscription.product_name} subscription is past due`,
  preview: (props) => `${formatMoney(props.amount, props.currency)} is due: please update your payment method.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription is past due</Title>
      <Greeting name={props.customer_name} />
      <P>
        We could not collect {formatMoney(props.amount, props.currency)} for your {props.subscription.product_name} subscription. Update
        your payment method so that we can charge it and your access continues.
      </P>
      <PayOrManage href={props.update_payment_method_url} subscription={props.subscription} brand={brand} />
    </>
  ),
};

export const subscriptionCancellation: Template<"subscription_cancellation"> = {
  subject: (props) => `Your ${props.subscription.product_name} subscription has been canceled`,
  preview: (props) => `You keep access until ${formatDate(props.ends_at)}.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription has been canceled</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your {props.subscription.product_name} subscription will not renew. You keep your access until {formatDate(props.ends_at)}.
      </P>
      <P>Changed your mind? You can resume it at any time before then.</P>
      <Manage subscription={props.subscription} brand={brand}>
        Resume your subscription
      </Manage>
    </>
  ),
};

export const subscriptionUncanceled: Template<"subscription_uncanceled"> = {
  subject: (props) => `Your ${props.subscription.product_name} subscription will continue`,
  preview: (props) => renewalLine(props.subscription),
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription will continue</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your {props.subscription.product_name} subscription is active again. {renewalLine(props.subscription)}
      </P>
      <Manage subscription={props.subscription} brand={brand} />
    </>
  ),
};

export const subscriptionRevoked: Template<"subscription_revoked"> = {
  subject: (props) => `Your access to ${props.product_name} has ended`,
  preview: (props) => `Your ${props.product_name} subscription ended on ${formatDate(props.ended_at)}.`,
  reason: (props, brand) => `You receive this email because you subscribed to ${props.product_name} from ${brand.name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>Your subscription has ended</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your {props.product_name} subscription ended on {formatDate(props.ended_at)}, and with it your access to its benefits.
      </P>
      <P>You are welcome back at any time.</P>
      <Action href={props.portal_url} brand={brand}>
        Visit the customer portal
      </Action>
    </>
  ),
};

export const subscriptionUpdated: Template<"subscription_updated"> = {
  subject: (props) => `Your subscription has changed to ${props.subscription.product_name}`,
  preview: (props) => `From ${props.previous_product_name} to ${props.subscription.product_name}.`,
  reason: (props, brand) => subscriberReason(props.subscription, brand.name),
  Content: ({ props, brand }) => (
    <>
      <Title>Your plan has changed</Title>
      <Greeting name={props.customer_name} />
      <P>
        Your subscription changed from {props.previous_product_name} to {props.subscription.product_name} on{" "}
        {formatDate(props.effective_at)}. {renewalLine(props.subscription)}
      </P>
      <Manage subscription={props.subscription} brand={brand} />
    </>
  ),
};
