// The console's English: react-admin's own messages with ours over them, each resource's words
// (resources.ts) under `resources.<name>`, and other screens' words (screens.ts) under `borealis`.
import englishMessages from "ra-language-english";
import type { TranslationMessages } from "react-admin";
import { RESOURCE_WORDS, type ResourceWords } from "./resources";
import { SCREEN_WORDS } from "./screens";

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function resourceMessages(w: ResourceWords) {
  return {
    name: `${capital(w.one)} |||| ${capital(w.many)}`,
    forcedCaseName: `${w.one} |||| ${w.many}`,
    empty: w.empty,
    invite: w.invite ?? "",
    page: { create: `New ${w.one}` },
    action: { create: `New ${w.one}` },
    notifications: {
      created: `${capital(w.one)} created`,
      updated: `${capital(w.one)} saved`,
      deleted: `${capital(w.one)} deleted |||| %{smart_count} ${w.many} deleted`,
    },
  };
}

const ra = englishMessages.ra;

export const en: TranslationMessages = {
  ra: Object.assign({}, ra, {
    action: Object.assign({}, ra.action, { create: "New" }),
    page: Object.assign({}, ra.page, { create: "New %{name}", empty: "Nothing here yet", invite: "Create the first one." }),
    notification: Object.assign({}, ra.notification, {
      created: "Created",
      updated: "Saved |||| %{smart_count} saved",
      deleted: "Deleted |||| %{smart_count} deleted",
    }),
    navigation: Object.assign({}, ra.navigation, {
      no_results: "Nothing here yet",
      no_filtered_results: "Nothing matches these filters.",
      clear_filters: "Clear the filters",
    }),
    auth: Object.assign({}, ra.auth, { auth_check_error: "Sign in to continue" }),
  }),
  resources: Object.fromEntries(Object.entries(RESOURCE_WORDS).map(([name, w]) => [name, resourceMessages(w)])),
  borealis: SCREEN_WORDS,
};
