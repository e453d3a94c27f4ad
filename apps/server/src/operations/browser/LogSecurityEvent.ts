import { BROWSER_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import { recordBrowserSecurityEvent } from '../../devices/browser-security-events.ts';
import { browserResolver } from '../../pairql/resolver.ts';

// Issue 22: the extension's tamper and health signals (the uninstall signal comes through
// /browser-filter/uninstalled, http/browser-filter.ts).
export default browserResolver('LogSecurityEvent', async (input, ctx) => {
  await recordBrowserSecurityEvent(ctx, BROWSER_SECURITY_EVENT_NAMES[input.event], input.detail);
  return { success: true };
});
