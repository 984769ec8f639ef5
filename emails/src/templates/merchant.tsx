// Notifications to the organization's owners and admins.
import type { ReactNode } from "react";
import { formatDate, formatMoney, formatPrice } from "../format.js";
import { Action, P, Rows, Title } from "../layout.js";
import type { Brand } from "../messages.js";
import { customerLabel, type Template } from "../template.js";

const memberReason = (_props: unknown, brand: Brand) => `You receive this notification because you are an owner or admin of ${brand.name}.`;

/** A notification: what happened, optional details, and the button to it in the console. */
function Notice(p: { brand: Brand; title: string; href: string; action: string; details?: [string, string][]; children: ReactNode }) {
  return (
    <>
      <Title>{p.title}</Title>
      <P>{p.children}</P>
      {p.details?.length ? <Rows rows={p.details} /> : null}
      <Action href={p.href} brand={p.brand}>
        {p.action}
      </Action>
    </>
  );
}

const reasonText = (reason: string | null) => (reason ? reason.replace(/_/g, " ") : null);

export const notificationNewSale: Template<"notification_new_sale"> = {
  subject: (props) => `New sale: ${props.product_name} for ${formatMoney(props.amount, props.currency)}`,
  preview: (props) => `${customerLabel(props.customer_name, props.customer_email)} bought ${props.product_name}.`,
  reason: memberReason,
  Content: ({ props, brand }) => (
    <Notice brand={brand} title="You made a sale" href={props.order_url} action="View the order">
      {customerLabel(props.customer_name, props.customer_email)} bought {props.product_name} for {formatMoney(props.amount, props.currency)}
      .
    </Notice>
  ),
};

export const notificationNewSubscription: Template<"notification_new_subscription"> = {
  subject: (props) => `New subscription: ${props.product_name}`,
  preview: (props) => `${customerLabel(props.customer_name, props.customer_email)} subscribed to ${props.product_name}.`,
  reason: memberReason,
  Content: ({ props, brand }) => (
    <Notice brand={brand} title="You have a new subscriber" href={props.subscription_url} action="View the subscription">
      {customerLabel(props.customer_name, props.customer_email)} subscribed to {props.product_name} at{" "}
      {formatPrice(props.amount, props.currency, props.recurring_interval, props.recurring_interval_count)}.
    </Notice>
  ),
};

export const notificationSubscriptionCancellation: Template<"notification_subscription_cancellation"> = {
  subject: (props) => `Subscription canceled: ${props.product_name}`,
  preview: (props) => `${customerLabel(props.customer_name, props.customer_email)} canceled; it ends on ${formatDate(props.ends_at)}.`,
  reason: memberReason,
  Content: ({ props, brand }) => {
    const details: [string, string][] = [["Ends on", formatDate(props.ends_at)]];
    const reason = reasonText(props.reason);
    if (reason) details.push(["Reason", reason]);
    if (props.comment) details.push(["Comment", props.comment]);
    return (
      <Notice
        brand={brand}
        title="A subscription was canceled"
        href={props.subscription_url}
        action="View the subscription"
        details={details}
      >
        {customerLabel(props.customer_name, props.customer_email)} canceled their {props.product_name} subscription. It will not renew.
      </Notice>
    );
  },
};

export const notificationRefund: Template<"notification_refund"> = {
  subject: (props) => `Refund issued: ${formatMoney(props.refund_amount, props.currency)} for ${props.product_name}`,
  preview: (props) => `Refunded to ${customerLabel(props.customer_name, props.customer_email)}.`,
  reason: memberReason,
  Content: ({ props, brand }) => {
    const reason = reasonText(props.reason);
    return (
      <Notice
        brand={brand}
        title="A refund was issued"
        href={props.order_url}
        action="View the order"
        details={reason ? [["Reason", reason]] : []}
      >
        A refund of {formatMoney(props.refund_amount, props.currency)} for {props.product_name} was issued to{" "}
        {customerLabel(props.customer_name, props.customer_email)}.
      </Notice>
    );
  },
};

export const webhookEndpointDisabled: Template<"webhook_endpoint_disabled"> = {
  subject: (_props, brand) => `A webhook endpoint of ${brand.name} was disabled`,
  preview: (props) => `Deliveries to ${props.endpoint_url} kept failing.`,
  reason: memberReason,
  Content: ({ props, brand }) => (
    <Notice brand={brand} title="A webhook endpoint was disabled" href={props.webhook_url} action="Review the endpoint">
      Deliveries to {props.endpoint_url} kept failing, so the endpoint was disabled on {formatDate(props.disabled_at)}. No events are sent
      to it until you enable it again.
    </Notice>
  ),
};
