// Debian's Chromium driven by playwright-core, with the flags this machine needs: for the browser
// tests (harness.ts) and the checkout bench (bench/portal.ts). No vitest here.
import { chromium, type Browser } from "playwright-core";
import { setting } from "../../server/config.js";

/** Where Chromium is: CHROMIUM_PATH, else Debian's package (scripts/build-tools.sh installs it). */
export const CHROMIUM_PATH = setting("CHROMIUM_PATH");

/** No sandbox as root, no GPU, no network of Chromium's own (the machine's network is closed). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Headless Chromium; playwright gives each launch a fresh --user-data-dir of its own. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
