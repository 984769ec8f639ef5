// What the server tells the page (server/ui-apps.ts writes it into index.html): the payment
// processor in use and, for Stripe, the publishable key for the Payment Element.
export interface AppConfig {
  processor: "sandbox" | "stripe";
  stripe_publishable_key: string | null;
}

let cached: AppConfig | undefined;

export function appConfig(): AppConfig {
  if (cached) return cached;
  const text = document.getElementById("app-config")?.textContent;
  const parsed = text ? (JSON.parse(text) as Partial<AppConfig>) : {};
  cached = {
    processor: parsed.processor === "stripe" ? "stripe" : "sandbox",
    stripe_publishable_key: parsed.stripe_publishable_key ?? null,
  };
  return cached;
}
