// The page's icon: the organization's avatar when it has one, else the default (/favicon.ico,
// served by the API), set beside the page title once the organization is known.
const DEFAULT_ICON = "/favicon.ico";

export function setFavicon(avatarUrl: string | null | undefined): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  const href = avatarUrl || DEFAULT_ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  // The avatar is whatever image type the merchant uploaded; the default is an .ico.
  if (avatarUrl) link.removeAttribute("type");
  else link.type = "image/x-icon";
}
