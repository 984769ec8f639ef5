// What every portal section gets: the customer session's client, the organization and its
// products (the storefront), the customer and who is signed in, and which sections the organization offers.
import { createContext, useContext } from "react";
import type { Client } from "../../../../generated/client/client/index.js";
import type {
  CustomerOrganizationData,
  CustomerPortalCustomer,
  OrganizationCustomerPortalSettings,
  PortalAuthenticatedUser,
} from "../../../../generated/client/types.gen.js";

export interface Portal {
  slug: string;
  client: Client;
  storefront: CustomerOrganizationData;
  customer: CustomerPortalCustomer;
  /** Who is signed in: the customer, or a member of a team customer. */
  user: PortalAuthenticatedUser;
  /** Where the "back" link takes the customer: the address the merchant opened the session with. */
  returnUrl: string | null;
  sections: OrganizationCustomerPortalSettings;
  setCustomer(customer: CustomerPortalCustomer): void;
  /** Portal path of a section ("" for the overview). */
  href(section: string): string;
}

export const PortalContext = createContext<Portal | null>(null);

export function usePortal(): Portal {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error("usePortal outside the portal");
  return portal;
}
