// The browser apps the API serves (see server/kit/ui-apps.ts). One line per app: its folder, the
// URL prefix of its built files (Vite's `base`), its client-side routes, and the folders outside
// its own that it is built from.
import type { UiApp } from "./kit/ui-apps.js";
import { setting } from "./config.js";
import { getProcessor, processorIsLive } from "./processors/index.js";

export const UI_APPS: readonly UiApp[] = [
  // The merchant console (react-admin): every path under /dashboard/ is one of its routes.
  // Its config: the payment processor, and whether it takes real payments (Home's "go live" step).
  {
    name: "admin",
    dir: "admin",
    base: "/dashboard/",
    routes: [],
    sources: ["generated", "shared"],
    config: () => ({ processor: getProcessor().name, live: getProcessor().name === "stripe" && processorIsLive() }),
  },
  // The hosted checkout (every checkout's `url`) and the customer portal.
  {
    name: "portal",
    dir: "portal",
    base: "/_portal/",
    routes: ["/checkout/:clientSecret/*", "/:slug/portal/*"],
    sources: ["generated/client", "shared"],
    config: () => ({ processor: getProcessor().name, stripe_publishable_key: setting("STRIPE_PUBLISHABLE_KEY") ?? null }),
  },
];
