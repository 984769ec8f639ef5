// What the server tells the console (server/ui-apps.ts writes it into index.html): the payment
// processor in use and whether it takes real payments.
export interface AppConfig {
  processor: "sandbox" | "stripe";
  live: boolean;
}

let cached: AppConfig | undefined;

export function appConfig(): AppConfig {
  if (cached) return cached;
  const text = document.getElementById("app-config")?.textContent;
  const parsed = text ? (JSON.parse(text) as Partial<AppConfig>) : {};
  cached = { processor: parsed.processor === "stripe" ? "stripe" : "sandbox", live: parsed.live === true };
  return cached;
}
