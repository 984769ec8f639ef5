// /<organization slug>/portal[/<section>]: the customer portal. The organization (storefront) is
// public; with a customer session (the merchant's link, or the email-code sign-in) the customer
// sees the sections the organization offers. A session that has expired leads back to sign-in.
import { useCallback, useEffect, useMemo, useState } from "react";
import {
  customerPortalCustomerSessionIntrospect,
  customerPortalCustomerSessionGetAuthenticatedUser,
  customerPortalCustomersGet,
  customerPortalOrganizationsGet,
} from "../../../generated/client/sdk.gen.js";
import type { CustomerOrganizationData, CustomerPortalCustomer, PortalAuthenticatedUser } from "../../../generated/client/types.gen.js";
import { customerClient, publicClient } from "../api/client.js";
import { ApiFailure, call } from "../api/errors.js";
import { PortalContext, type Portal } from "../features/portal/context.js";
import { offers, PortalLayout, SECTIONS, type SectionId } from "../features/portal/layout.js";
import { EmailsSection } from "../features/portal/emails.js";
import { VerifyEmail } from "../features/portal/email-change.js";
import { OrdersSection } from "../features/portal/orders.js";
import { OverviewSection } from "../features/portal/overview.js";
import { forgetToken, storedToken, storeToken, takeTokenFromUrl } from "../features/portal/session.js";
import { SignIn } from "../features/portal/signin.js";
import { BenefitsSection, BillingSection, PaymentMethodsSection, UsageSection } from "../features/portal/sections.js";
import { SubscriptionsSection } from "../features/portal/subscriptions.js";
import { TeamSection } from "../features/portal/team.js";
import { SeatsSection } from "../features/portal/seats.js";
import { WalletSection } from "../features/portal/wallet.js";
import { ClaimSeat } from "../features/portal/claim.js";
import { Loading, MessagePage } from "../ui/components.js";
import { navigate } from "../router.js";
import { setFavicon } from "../ui/favicon.js";

type State =
  | { kind: "loading" }
  | { kind: "missing" }
  | { kind: "error"; detail: string }
  | { kind: "signin"; storefront: CustomerOrganizationData; notice?: string }
  | {
      kind: "ready";
      storefront: CustomerOrganizationData;
      customer: CustomerPortalCustomer;
      user: PortalAuthenticatedUser;
      token: string;
      returnUrl: string | null;
    };

function Section({ id }: { id: SectionId }) {
  switch (id) {
    case "overview":
      return <OverviewSection />;
    case "orders":
      return <OrdersSection />;
    case "subscriptions":
      return <SubscriptionsSection />;
    case "benefits":
      return <BenefitsSection />;
    case "usage":
      return <UsageSection />;
    case "payment-methods":
      return <PaymentMethodsSection />;
    case "billing":
      return <BillingSection />;
    case "emails":
      return <EmailsSection />;
    case "team":
      return <TeamSection />;
    case "seats":
      return <SeatsSection />;
    case "wallet":
      return <WalletSection />;
  }
}

export function PortalRoute({ slug, section }: { slug: string; section: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    takeTokenFromUrl(slug);
    (async () => {
      let storefront: CustomerOrganizationData;
      try {
        storefront = await call(customerPortalOrganizationsGet({ client: publicClient, path: { slug } }));
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiFailure && err.status === 404) setState({ kind: "missing" });
        else setState({ kind: "error", detail: err instanceof ApiFailure ? err.detail : String(err) });
        return;
      }
      document.title = `${storefront.organization.name} · Customer portal`;
      setFavicon(storefront.organization.avatar_url);
      const token = storedToken(slug);
      if (!token) return live && setState({ kind: "signin", storefront });
      try {
        const [customer, session, user] = await Promise.all([
          call(customerPortalCustomersGet({ client: customerClient(token) })),
          call(customerPortalCustomerSessionIntrospect({ client: customerClient(token) })),
          call(customerPortalCustomerSessionGetAuthenticatedUser({ client: customerClient(token) })),
        ]);
        if (live) setState({ kind: "ready", storefront, customer, user, token, returnUrl: session.return_url });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiFailure && (err.status === 401 || err.status === 403)) {
          // 403: a checkout's session, which shows that purchase only.
          forgetToken(slug);
          const notice =
            err.status === 401
              ? "Your session has ended. Sign in again."
              : "Sign in with a code sent to your email to see everything you bought.";
          setState({ kind: "signin", storefront, notice });
        } else setState({ kind: "error", detail: err instanceof ApiFailure ? err.detail : String(err) });
      }
    })();
    return () => {
      live = false;
    };
  }, [slug, attempt]);

  const setCustomer = useCallback((customer: CustomerPortalCustomer) => setState((s) => (s.kind === "ready" ? { ...s, customer } : s)), []);
  const portal = useMemo<Portal | null>(() => {
    if (state.kind !== "ready") return null;
    return {
      slug,
      client: customerClient(state.token),
      storefront: state.storefront,
      customer: state.customer,
      user: state.user,
      returnUrl: state.returnUrl,
      sections: state.storefront.organization.customer_portal_settings,
      setCustomer,
      href: (s: string) => `/${encodeURIComponent(slug)}/portal${s ? `/${s}` : ""}`,
    };
  }, [state, slug, setCustomer]);

  if (state.kind === "loading") return <Loading label="Loading your portal…" />;
  if (state.kind === "missing")
    return (
      <MessagePage title="Store not found">
        <p>There is no store at this address.</p>
      </MessagePage>
    );
  if (state.kind === "error")
    return (
      <MessagePage title="Something went wrong">
        <p>{state.detail}</p>
      </MessagePage>
    );
  if (section === "verify-email" && (state.kind === "signin" || state.kind === "ready")) {
    // The email change link: signed in or not, the code is the proof; it signs in with the new session.
    return (
      <VerifyEmail
        organization={state.storefront.organization}
        onVerified={(token) => {
          storeToken(slug, token);
          setState({ kind: "loading" });
          navigate(`/${encodeURIComponent(slug)}/portal/emails`, { replace: true });
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (section === "claim" && (state.kind === "signin" || state.kind === "ready")) {
    // A seat invitation's link: signed in or not, the token is the proof; claiming signs in as the seat's holder.
    return (
      <ClaimSeat
        onClaimed={(claimedSlug, token) => {
          storeToken(claimedSlug, token);
          setState({ kind: "loading" });
          navigate(`/${encodeURIComponent(claimedSlug)}/portal`, { replace: true });
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (state.kind === "signin") {
    return (
      <SignIn
        organization={state.storefront.organization}
        notice={state.notice}
        onSignedIn={(token) => {
          storeToken(slug, token);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  const known = SECTIONS.find((s) => s.id === section);
  const offered = known && offers(state.storefront.organization.customer_portal_settings, known);
  const current: SectionId = offered ? known.id : "overview";
  return (
    <PortalContext.Provider value={portal}>
      <PortalLayout
        section={current}
        onSignOut={() => {
          forgetToken(slug);
          setState({ kind: "signin", storefront: state.storefront });
          navigate(`/${encodeURIComponent(slug)}/portal`, { replace: true });
        }}
      >
        {known && !offered ? <p className="muted">{known.label} are not available here.</p> : null}
        <Section id={current} />
      </PortalLayout>
    </PortalContext.Provider>
  );
}
