// Documentation, support and help links. They point at the server's /help/{link} addresses, which
// lead on to the configured DOCS_URL / SUPPORT_URL or, by default, to the getting-started page the
// server serves itself (apps/server/src/http/help-pages.ts): no link points at an address that does
// not exist, and the configuration lives in one place, the server's.
const base = `${import.meta.env.VITE_API_ENDPOINT ?? ''}/help`;

export const externalLinks = {
  documentation: `${base}/documentation`,
  contactSupport: `${base}/support`,
  howToVideo: `${base}/how-to-video`,
  gettingStartedGuide: `${base}/getting-started`,
  /** issue 32: the guide's steps for each way to filter a device (there is no Keyward Mac app) */
  macAppGuide: `${base}/mac-app`,
  iosAppGuide: `${base}/ios-app`,
  chromeGuide: `${base}/chrome-filter`,
} as const;
