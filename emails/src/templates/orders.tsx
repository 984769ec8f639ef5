// Orders: the receipt and the refund.
import { formatDate, formatMoney } from "../format.js";
import { Action, Greeting, P, Rows, Title } from "../layout.js";
import { Receipt } from "../receipt.js";
import type { Template } from "../template.js";

export const orderConfirmation: Template<"order_confirmation"> = {
  subject: (_props, brand) => `Your receipt from ${brand.name}`,
  preview: (props) => `Thank you for buying ${props.product_name}: ${formatMoney(props.order.total_amount, props.order.currency)}.`,
  reason: (props, brand) => `You receive this email because you bought ${props.product_name} from ${brand.name}.`,
  Content: ({ props, brand }) => (
    <>
      <Title>Thank you for your order</Title>
      <Greeting name={props.customer_name} />
      <P>Here is your receipt for {props.product_name}.</P>
      <Receipt order={props.order} brand={brand} />
    </>
  ),
};

export const orderRefunded: Template<"order_refunded"> = {
  subject: (_props, brand) => `Your refund from ${brand.name}`,
  preview: (props) => `${formatMoney(props.refund_amount, props.currency)} refunded for ${props.product_name}.`,
  reason: (props, brand) => `You receive this email because ${brand.name} refunded your purchase of ${props.product_name}.`,
  Content: ({ props, brand }) => {
    const money = (amount: number) => formatMoney(amount, props.currency);
    const partial = props.refund_amount < props.order_total_amount;
    return (
      <>
        <Title>Your refund is on its way</Title>
        <Greeting name={props.customer_name} />
        <P>
          We refunded{" "}
          {partial
            ? `${money(props.refund_amount)} of your ${money(props.order_total_amount)} payment`
            : `your payment of ${money(props.refund_amount)}`}{" "}
          for {props.product_name}
          {props.invoice_number ? ` (invoice ${props.invoice_number})` : ""}. It can take 5 to 10 business days to appear on your statement.
        </P>
        <Rows
          rows={[
            ["Refunded on", formatDate(props.refunded_at)],
            ["Amount refunded", money(props.refund_amount)],
          ]}
        />
        <Action href={props.order_url} brand={brand}>
          View your order
        </Action>
      </>
    );
  },
};
