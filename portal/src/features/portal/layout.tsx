// The portal's frame: the organization, who is signed in, the sections the organization offers,
// and a section's failure shown in words.
import type { ReactNode } from "react";
import { customerPortalWalletsList } from "../../../../generated/client/sdk.gen.js";
import { call, type ApiFailure } from "../../api/errors.js";
import { Alert, Button, Loading } from "../../ui/components.js";
import { navigate } from "../../router.js";
import { usePortal } from "./context.js";
import { useLoad, type Loaded } from "./data.js";
import type { OrganizationCustomerPortalSettings } from "../../../../generated/client/types.gen.js";

export const SECTIONS = [
  { id: "overview", label: "Overview", setting: null },
  { id: "orders", label: "Orders", setting: "orders" },
  { id: "subscriptions", label: "Subscriptions", setting: "subscriptions" },
  { id: "benefits", label: "Benefits", setting: "benefits" },
  { id: "usage", label: "Usage", setting: "usage" },
  { id: "payment-methods", label: "Payment methods", setting: "payment_methods" },
  { id: "billing", label: "Billing details", setting: "billing_details" },
  { id: "emails", label: "Email preferences", setting: null },
  { id: "team", label: "Team", setting: null },
  { id: "seats", label: "Seats", setting: null },
  { id: "wallet", label: "Wallet", setting: null },
] as const;

export type SectionId = (typeof SECTIONS)[number]["id"];

/** Whether the organization offers the section (usage is shown by `usage.show`). */
export function offers(settings: OrganizationCustomerPortalSettings, section: (typeof SECTIONS)[number]): boolean {
  if (section.setting === null) return true;
  return section.setting === "usage" ? settings.usage.show : settings[section.setting];
}

export function Failed({ error }: { error: ApiFailure }) {
  return (
    <Alert kind="error" title={error.status === 403 ? "Not available" : "Something went wrong"}>
      {error.detail}
    </Alert>
  );
}

/** Newer / older pages of a list, when it has more than one. */
export function Pager(props: { label: string; page: number; maxPage: number; onPage: (page: number) => void }) {
  if (props.maxPage <= 1) return null;
  return (
    <nav className="actions" aria-label={props.label}>
      <Button disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Newer
      </Button>
      <span className="muted">
        Page {props.page} of {props.maxPage}
      </span>
      <Button disabled={props.page >= props.maxPage} onClick={() => props.onPage(props.page + 1)}>
        Older
      </Button>
    </nav>
  );
}

/** A link to a portal path, followed in the page unless opened in a new tab. */
export function PageLink(props: { to: string; current?: boolean; children: ReactNode }) {
  return (
    <a
      href={props.to}
      aria-current={props.current ? "page" : undefined}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

/** A link to a section's page (its whole list). */
export function SectionLink(props: { section: SectionId; current?: boolean; children: ReactNode }) {
  const { href } = usePortal();
  return (
    <PageLink to={href(props.section === "overview" ? "" : props.section)} current={props.current}>
      {props.children}
    </PageLink>
  );
}

/** The one record a link opened (an email's order or subscription link): it alone, and a link to the section's list. */
export function Opened<T>(props: {
  title: string;
  section: SectionId;
  all: string;
  record: Loaded<T>;
  children: (record: T) => ReactNode;
}) {
  return (
    <section aria-labelledby="opened-title">
      <h2 id="opened-title">{props.title}</h2>
      <p>
        <SectionLink section={props.section}>{props.all}</SectionLink>
      </p>
      {props.record.state === "loading" ? <Loading /> : null}
      {props.record.state === "failed" ? <Failed error={props.record.error} /> : null}
      {props.record.state === "ready" ? props.children(props.record.data) : null}
    </section>
  );
}

export function PortalLayout(props: { section: SectionId; onSignOut: () => void; children: ReactNode }) {
  const { client, storefront, user, sections, returnUrl } = usePortal();
  const org = storefront.organization;
  // A team's members are shown where the organization has the Member model on (the section says when the customer is no team),
  // seats where it has seat-based pricing on, the wallet once the customer has a balance.
  const members = org.feature_settings?.member_model_enabled === true;
  const seats = org.feature_settings?.seat_based_pricing_enabled === true;
  const [wallets] = useLoad(() => call(customerPortalWalletsList({ client, query: { limit: 1 } })), [client]);
  const wallet = wallets.state === "ready" && wallets.data.items.length > 0;
  const shown: Partial<Record<SectionId, boolean>> = { team: members, seats, wallet };
  const visible = SECTIONS.filter((s) => offers(sections, s) && shown[s.id] !== false);
  return (
    <div className="page">
      <header className="portal__header">
        {returnUrl ? (
          <a className="portal__back" href={returnUrl} data-testid="back-to-merchant">
            ← Back to {org.name}
          </a>
        ) : null}
        <div className="org">
          {org.avatar_url ? (
            <img className="org__avatar" src={org.avatar_url} alt="" />
          ) : (
            <span className="org__avatar org__avatar--letter" aria-hidden="true">
              {org.name.slice(0, 1)}
            </span>
          )}
          <span className="org__name">{org.name}</span>
        </div>
        <div className="row">
          <span className="muted" data-testid="signed-in-as">
            {user.email}
          </span>
          <Button kind="link" onClick={props.onSignOut}>
            Sign out
          </Button>
        </div>
      </header>
      <div className="portal">
        <nav className="portal__nav" aria-label="Customer portal">
          <ul>
            {visible.map((s) => (
              <li key={s.id}>
                <SectionLink section={s.id} current={props.section === s.id}>
                  {s.label}
                </SectionLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="portal__main">
          <h1 className="visually-hidden">{org.name} customer portal</h1>
          {props.children}
        </main>
      </div>
    </div>
  );
}
