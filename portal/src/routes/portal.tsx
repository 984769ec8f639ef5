// /<organization slug>/portal: the customer portal.
import { MessagePage } from "../ui/components.js";

export function PortalRoute({ slug }: { slug: string; section: string }) {
  return <MessagePage title={`Customer portal of ${slug}`} />;
}
