import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestServer } from './harness.ts';

// Documentation and support links: /help/{link} leads to DOCS_URL / SUPPORT_URL, or to the
// getting-started page the server serves itself, so no link of the dashboard points nowhere.

describe('help links', () => {
  test('by default every link ends on the server’s own getting-started page, which exists', async () => {
    const server = await createTestServer();
    try {
      const origin = server.config.dashboardUrls[0];
      const expected: Record<string, string> = {
        documentation: `${origin}/getting-started`,
        support: `${origin}/getting-started#support`,
        'how-to-video': `${origin}/getting-started#how-to`,
        'getting-started': `${origin}/getting-started`,
        'mac-app': `${origin}/getting-started#mac-app`,
        'ios-app': `${origin}/getting-started#ios-app`,
        'chrome-filter': `${origin}/getting-started#chrome`,
      };
      for (const [link, target] of Object.entries(expected)) {
        const response = await server.app.inject({ method: 'GET', url: `/help/${link}` });
        expect(response.statusCode, link).toBe(302);
        expect(response.headers.location).toBe(target);
      }
      const page = await server.app.inject({ method: 'GET', url: '/getting-started' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      for (const anchor of [
        'id="support"',
        'id="how-to"',
        'id="mac-app"',
        'id="ios-app"',
        'id="chrome"',
      ]) {
        expect(page.body).toContain(anchor);
      }
      // issue 32: what a Mac family can really install, not a Keyward Mac app that does not exist
      expect(page.body).toContain('has no Mac app of its own');
      expect(page.body).toContain('The open-source Gertrude Mac app');
      expect(page.body).not.toContain('Install the Keyward filter app');
      expect(page.body).toContain('mailto:support@keyward.local');
      // the extension's download is the server's own (with its address filled in)
      expect(page.body).toContain(`href="${server.config.publicUrl}/downloads/keyward-chrome.zip"`);
      expect(page.body).toContain(String.raw`HKLM\Software\Policies\Google\Chrome`);
      expect(page.body).not.toMatch(/keyward\.app/);

      const unknown = await server.app.inject({ method: 'GET', url: '/help/elsewhere' });
      expect(unknown.statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });

  test('emails end with the documentation link, which is not one of their action links', async () => {
    const server = await createTestServer({ env: { DOCS_URL: 'https://docs.example.org/start' } });
    try {
      const parent = await server.signUpVerifiedParent();
      await server.call('SendPasswordResetEmail', { email: parent.email });
      const mail = server.lastEmailTo(parent.email, 'password-reset');
      expect(mail.text).toMatch(/\nHelp and guides: https:\/\/docs\.example\.org\/start$/);
      expect(mail.html).toContain(
        '<a href="https://docs.example.org/start">https://docs.example.org/start</a>',
      );
      expect(mail.links).not.toContain('https://docs.example.org/start');
      expect(mail.links.some((link) => link.includes('/reset-password/'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  test('DOCS_URL and SUPPORT_URL replace the defaults', async () => {
    const server = await createTestServer({
      env: { DOCS_URL: 'https://docs.example.org/keyward', SUPPORT_URL: 'mailto:help@example.org' },
    });
    try {
      const location = async (link: string) =>
        (await server.app.inject({ method: 'GET', url: `/help/${link}` })).headers.location;
      expect(await location('documentation')).toBe('https://docs.example.org/keyward');
      expect(await location('how-to-video')).toBe('https://docs.example.org/keyward');
      expect(await location('support')).toBe('mailto:help@example.org');
    } finally {
      await server.close();
    }
  });

  test.each([
    ['DOCS_URL', 'docs.example.org'],
    ['DOCS_URL', 'ftp://example.org/docs'],
    ['SUPPORT_URL', 'javascript:alert(1)'],
  ])('%s=%s stops start-up with a message naming the variable', (variable, value) => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        HMAC_KEY: 'a'.repeat(64),
        ENCRYPTION_KEY: 'b'.repeat(64),
        [variable]: value,
      }),
    ).toThrow(variable);
  });
});
