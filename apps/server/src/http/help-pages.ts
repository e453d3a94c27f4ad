import type { FastifyInstance } from 'fastify';
import { createPublicKey } from 'node:crypto';
import { INSTALL_OPTIONS, type InstallTarget } from '@keyward/domain/device-installs';
import type { Config } from '../config.ts';
import { browserFilterSigningKey, extensionIdOf } from '../services/crx.ts';

// Documentation and support links (issue 9): the dashboard and the emails link to the server's own
// /help/{link} addresses, which send the browser on to DOCS_URL / SUPPORT_URL, or — when those are
// not configured — to the getting-started page this server serves itself. No link points at an
// address that does not exist, and the web app needs no configuration of its own.

export type HelpLink =
  | 'documentation'
  | 'support'
  | 'how-to-video'
  | 'getting-started'
  | 'mac-app'
  | 'ios-app'
  | 'chrome-filter';

export const HELP_LINKS: readonly HelpLink[] = [
  'documentation',
  'support',
  'how-to-video',
  'getting-started',
  'mac-app',
  'ios-app',
  'chrome-filter',
];

/** Where /help/{link} leads with this configuration. */
export function helpLinkTarget(
  config: Pick<Config, 'docsUrl' | 'supportUrl' | 'dashboardUrls'>,
  link: HelpLink,
): string {
  const ownGuide = `${config.dashboardUrls[0]}/getting-started`;
  const hasOwnDocs = config.docsUrl === ownGuide;
  switch (link) {
    case 'support':
      return config.supportUrl;
    case 'documentation':
      return config.docsUrl;
    case 'getting-started':
      return hasOwnDocs ? ownGuide : config.docsUrl;
    case 'how-to-video':
      return hasOwnDocs ? `${ownGuide}#how-to` : config.docsUrl;
    case 'mac-app':
      return hasOwnDocs ? `${ownGuide}#mac-app` : config.docsUrl;
    case 'ios-app':
      return hasOwnDocs ? `${ownGuide}#ios-app` : config.docsUrl;
    case 'chrome-filter':
      return hasOwnDocs ? `${ownGuide}#chrome` : config.docsUrl;
  }
}

/** Issue 32: what each kind of device can really install (packages/domain device-installs). */
function installList(target: InstallTarget): string {
  const items = INSTALL_OPTIONS[target].map(
    (option) =>
      `<li><strong>${escapeHtml(option.title)}</strong>: filters ${escapeHtml(option.filters)}. ${escapeHtml(option.limits)}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function gettingStartedPage(
  config: Pick<
    Config,
    'appName' | 'supportEmail' | 'supportUrl' | 'dashboardUrls' | 'publicUrl'
  > & {
    /** Keyward for Chrome's id, as signed by this server (services/crx.ts) */
    chromeExtensionId: string;
  },
): string {
  const server = escapeHtml(config.publicUrl);
  const forcelist = escapeHtml(
    `${config.chromeExtensionId};${config.publicUrl}/downloads/keyward-chrome-updates.xml`,
  );
  const app = escapeHtml(config.appName);
  const dashboard = escapeHtml(config.dashboardUrls[0] ?? '');
  const supportAddress = escapeHtml(
    (config.supportEmail.match(/<([^>]+)>/)?.[1] ?? config.supportEmail).trim(),
  );
  const ownSupport = config.supportUrl.endsWith('/getting-started#support');
  const supportLink = ownSupport
    ? `<a href="mailto:${supportAddress}">${supportAddress}</a>`
    : `<a href="${escapeHtml(config.supportUrl)}">${escapeHtml(config.supportUrl)}</a> or write to <a href="mailto:${supportAddress}">${supportAddress}</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Getting started · ${app}</title>
<style>
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; color: #0f172a; background: #f8fafc; line-height: 1.6; }
  header { background: linear-gradient(135deg, #6d28d9, #c026d3); color: #fff; padding: 40px 20px 56px; }
  header .inner, main { max-width: 760px; margin: 0 auto; }
  header p { color: #ede9fe; margin: 8px 0 0; }
  .brand { font-weight: 700; letter-spacing: .02em; color: #f5d0fe; text-decoration: none; }
  h1 { font-size: 2rem; line-height: 1.2; margin: 12px 0 0; }
  main { padding: 0 20px 48px; margin-top: -32px; }
  section { background: #fff; border-radius: 16px; box-shadow: 0 1px 2px rgba(15,23,42,.06); outline: 1px solid #e2e8f0; padding: 24px; margin-bottom: 16px; }
  h2 { font-size: 1.15rem; margin: 0 0 8px; display: flex; gap: 12px; align-items: center; }
  .n { display: inline-flex; width: 32px; height: 32px; border-radius: 999px; align-items: center; justify-content: center; color: #fff; font-weight: 700; background: linear-gradient(135deg, #7c3aed, #c026d3); flex-shrink: 0; }
  p, li { color: #334155; }
  a { color: #6d28d9; font-weight: 600; }
  code { overflow-wrap: anywhere; }
  a:focus-visible { outline: 2px solid #8b5cf6; outline-offset: 2px; }
  .button { display: inline-block; background: #6d28d9; color: #fff; text-decoration: none; padding: 10px 18px; border-radius: 10px; margin-top: 8px; }
  footer { text-align: center; color: #64748b; font-size: .875rem; padding: 0 20px 32px; }
</style>
</head>
<body>
<header><div class="inner">
  <a class="brand" href="${dashboard}/">${app}</a>
  <h1>Getting started with ${app}</h1>
  <p>Keep your children safe online in a few steps: add a child, install a filter on their device and connect it, and unlock what they need with keys.</p>
</div></header>
<main>
  <section id="add-child">
    <h2><span class="n" aria-hidden="true">1</span>Add a child</h2>
    <p>In the dashboard, choose <strong>Add a child</strong> on the home page (or <strong>Children</strong> in the sidebar), give the child a name and save. You can turn on screenshots and keystroke monitoring, set downtime and block apps later, in the child's settings.</p>
    <a class="button" href="${dashboard}/children/new">Add a child</a>
  </section>
  <section id="mac-app">
    <h2><span class="n" aria-hidden="true">2</span>Connect the child's Mac</h2>
    <p>${app} has no Mac app of its own. What you can install on a Mac today:</p>
    ${installList('mac')}
    <p>For the Mac app: open its administrator window (menu bar icon → <em>Administrate</em>, with a macOS administrator's password), and in <strong>Advanced</strong> set the PairQL endpoint to <code>${server}/pairql</code> and the WebSocket endpoint to <code>${server}/app-websocket</code>. The app forgets them when it restarts: set them again, or build it with this server's address. In the dashboard, open the child and choose <strong>Add device</strong> (<strong>Get connection code</strong> before the first one); type the 6-digit code into the app. The code works once, for an hour. The computer then appears under <strong>Computers</strong> with its live status (filter on, off, suspended, downtime or offline).</p>
  </section>
  <section id="ios-app">
    <h2><span class="n" aria-hidden="true">2a</span>Or: an iPhone or iPad</h2>
    ${installList('ios')}
    <p>Set <code>API_URL</code> in <code>iosapp/config/Release.xcconfig</code> to <code>${server}</code>, build it with Xcode onto the device, then connect it with a code from the child's <strong>Add device</strong> dialog (choose <strong>iPhone or iPad</strong>).</p>
  </section>
  <section id="chrome">
    <h2><span class="n" aria-hidden="true">2b</span>Or: a Chromebook, a Windows or a Linux computer</h2>
    <p><strong>${app} for Chrome</strong> filters Chrome, Edge and other Chromium browsers the same way: everything is blocked except what your keys unlock. In the child's <strong>Add device</strong> dialog, choose <strong>Chrome browser</strong>, download the extension (it comes from this server, with its address filled in), load it in <code>chrome://extensions</code> and type the code on the page it opens.</p>
    <p>So that your child cannot remove it or get around it, install it by policy instead of by hand:</p>
    <ul>
      <li><strong>Chromebook:</strong> with Family Link, turn off the child's access to <em>chrome://extensions</em> and guest browsing; in Google Admin (school or business accounts), force-install the extension for the child's organisational unit and set <em>Incognito mode</em> to <em>Disallow</em>.</li>
      <li><strong>Windows, Linux, macOS:</strong> set Chrome's policies <code>ExtensionInstallForcelist</code> to <code>${forcelist}</code> (this server signs the extension and serves its updates), <code>IncognitoModeAvailability</code> = 1 (incognito off), <code>BrowserGuestModeEnabled</code> = false, <code>BrowserAddPersonEnabled</code> = false and <code>DeveloperToolsAvailability</code> = 2, in the registry under <code>HKLM\\Software\\Policies\\Google\\Chrome</code>, in <code>/etc/opt/chrome/policies/managed/</code> (Chromium: <code>/etc/chromium/policies/managed/</code>), or in a configuration profile for <code>com.google.Chrome</code>. Block other browsers, or filter them too. On Windows and macOS, Chrome takes an extension from outside the Chrome Web Store by policy only on a managed computer (joined to a domain, enrolled in Chrome's cloud management, or with a device-management profile); Linux has no such condition.</li>
    </ul>
    <p>If the extension is removed anyway, or cannot filter incognito windows, you get a security event and a notification.</p>
    <a class="button" href="${server}/downloads/keyward-chrome.zip">Download ${app} for Chrome</a>
  </section>
  <section id="keychains">
    <h2><span class="n" aria-hidden="true">3</span>Unlock what your child needs with keychains</h2>
    <p>The filter blocks the internet except what you unlock. A <strong>key</strong> unlocks one website or app; a <strong>keychain</strong> is a named group of keys. Create a keychain under <strong>Keychains</strong>, or add one of the public keychains, and assign it to a child — always, or on a schedule.</p>
  </section>
  <section id="requests">
    <h2><span class="n" aria-hidden="true">4</span>Answer requests and review activity</h2>
    <p>When something is blocked, your child can send an <strong>unlock request</strong> or ask to <strong>suspend the filter</strong> for a while. You see them on the home page and can accept or deny them. Set up notifications (email, text message or Slack) in <strong>Settings</strong> so they reach you at once. If monitoring is on, review screenshots and typed text under each child's <strong>Activity</strong>.</p>
  </section>
  <section id="how-to">
    <h2><span class="n" aria-hidden="true">5</span>A two-minute tour</h2>
    <ol>
      <li>Home page: your children's status, pending requests, activity to review and quick actions.</li>
      <li>Children: settings per child — monitoring, downtime, blocked apps and keychains.</li>
      <li>Computers: every connected Mac, its app version and release channel.</li>
      <li>Security: what happened on your account and on your children's Macs in the last 14 days.</li>
      <li>Settings: your plan, notification methods and notifications.</li>
    </ol>
  </section>
  <section id="support">
    <h2>Need help?</h2>
    <p>Write to us at ${supportLink}. Tell us what you tried and what you saw; we answer every message.</p>
  </section>
</main>
<footer>${app} · <a href="${dashboard}/">Back to the dashboard</a></footer>
</body>
</html>`;
}

export async function registerHelpPages(app: FastifyInstance, config: Config): Promise<void> {
  // made at the first visit: the extension's id needs the CRX signing key (generated once)
  let page: string | undefined;
  app.get('/getting-started', async (_request, reply) => {
    page ??= gettingStartedPage({
      ...config,
      chromeExtensionId: extensionIdOf(createPublicKey(browserFilterSigningKey(config))),
    });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  });
  app.get<{ Params: { link: string } }>('/help/:link', async (request, reply) => {
    const link = request.params.link as HelpLink;
    if (!HELP_LINKS.includes(link)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('No such help page.');
    }
    return reply.header('cache-control', 'no-cache').redirect(helpLinkTarget(config, link), 302);
  });
}
