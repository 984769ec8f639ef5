// The console's i18n provider: polyglot over our English messages (en.ts).
import polyglotI18nProvider from "ra-i18n-polyglot";
import { en } from "./en";

export const i18nProvider = polyglotI18nProvider(() => en, "en", { allowMissing: true });
