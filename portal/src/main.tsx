// The portal app's entry: one root, the route from the URL.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { CheckoutRoute } from "./routes/checkout.js";
import { ConfirmationRoute } from "./routes/confirmation.js";
import { PortalRoute } from "./routes/portal.js";
import { parseRoute, useLocation } from "./router.js";
import { MessagePage } from "./ui/components.js";
import "./styles.css";

function App() {
  const { pathname } = useLocation();
  const route = parseRoute(pathname);
  switch (route.name) {
    case "checkout":
      return <CheckoutRoute key={route.secret} secret={route.secret} />;
    case "confirmation":
      return <ConfirmationRoute key={route.secret} secret={route.secret} />;
    case "portal":
      return <PortalRoute key={route.slug} slug={route.slug} section={route.section} />;
    case "not_found":
      return (
        <MessagePage title="Page not found">
          <p>There is nothing at this address.</p>
        </MessagePage>
      );
  }
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
