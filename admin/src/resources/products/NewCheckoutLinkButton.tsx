import { Button, useRecordContext } from "react-admin";
import LinkIcon from "@mui/icons-material/Link";
import { Link } from "react-router-dom";
import type { Product } from "../../api";

export function NewCheckoutLinkButton() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  return (
    <Button component={Link} to="/checkout-links/create" state={{ record: { product_ids: [record.id] } }} label="Checkout link">
      <LinkIcon />
    </Button>
  );
}
