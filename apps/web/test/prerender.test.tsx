import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { AppRoutes } from '../src/app/App';
import { PRERENDERED_ATTRIBUTE, shouldHydrate } from '../src/app/hydration';
import { Providers } from '../src/app/Providers';
import { prepareFirstScreen } from '../src/app/routes';
import { resetSessionCache } from '../src/lib/session';
import { PRERENDERED_PATHS } from '../src/prerender';

// Issue 30: the public pages are rendered to HTML at build time and hydrated by the browser. The
// HTML holds each page's form before any script runs, and hydrating it is quiet: React reports a
// mismatch through console.error and onRecoverableError, and both must stay silent.

// The pages are rendered as the build renders them: scripts/prerender.ts in a process of its own
// (React's server renderer leaves its contexts' values behind in the realm it ran in, which a
// browser never shares with the build).
let pages: Record<string, string>;
beforeAll(() => {
  const webRoot = path.resolve(import.meta.dirname, '..');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(webRoot, 'scripts/prerender.ts'), '--json'],
    { cwd: webRoot, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error(`prerender failed:\n${result.stderr}`);
  pages = JSON.parse(result.stdout);
}, 120_000);

const roots: Root[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
  resetSessionCache();
});

/** The page's prerendered HTML in #root, as the server sends it; then the browser's hydration. */
async function hydrate(path: string) {
  const html = pages[path];
  if (html === undefined) throw new Error(`${path} was not prerendered`);
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute(PRERENDERED_ATTRIBUTE, path);
  container.innerHTML = html;
  document.body.append(container);
  const before = container.innerHTML;
  const errors = vi.spyOn(console, 'error');
  const recoverable = vi.fn();
  await prepareFirstScreen(path); // as main.tsx does: the page's chunk first
  resetSessionCache();
  expect(shouldHydrate(container, { pathname: path, search: '' }, null)).toBe(true);
  await act(async () => {
    roots.push(
      hydrateRoot(
        container,
        <StrictMode>
          <Providers>
            <MemoryRouter initialEntries={[path]}>
              <AppRoutes />
            </MemoryRouter>
          </Providers>
        </StrictMode>,
        { onRecoverableError: recoverable },
      ),
    );
  });
  return { container, before, errors, recoverable };
}

describe('the public pages, rendered at build time (issue 30)', () => {
  test.each(PRERENDERED_PATHS)(
    '%s: the HTML holds its form; hydrating it reports no mismatch',
    async (path) => {
      const { container, before, errors, recoverable } = await hydrate(path);
      expect(before).toContain('type="email"');
      expect(before).not.toContain('Loading...'); // the page itself, not its chunk's spinner
      expect(recoverable).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
      // the same elements, now React's: an edit reaches the page's state
      const email = container.querySelector<HTMLInputElement>('input[type="email"]');
      expect(email).not.toBeNull();
      fireEvent.change(email as HTMLInputElement, { target: { value: 'parent@example.com' } });
      expect((email as HTMLInputElement).value).toBe('parent@example.com');
      expect(container.querySelector('input[type="email"]')).toBe(email);
    },
  );

  test('/login: the passkey button, which the HTML cannot know of, appears after hydration', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const { before, errors, recoverable } = await hydrate('/login');
    expect(before).not.toContain('Sign in with a passkey');
    await waitFor(() => expect(screen.getByText('Sign in with a passkey')).toBeInTheDocument());
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  test('/login: the validation of the hydrated form works', async () => {
    await hydrate('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
  });
});

describe('shouldHydrate', () => {
  const root = (value: string | null) => ({ getAttribute: () => value });
  const session = { adminId: 'a', token: 't' };
  test.each([
    ['the prerendered path, bare, no session', root('/login'), '/login', '', null, true],
    ['another path', root('/login'), '/signup', '', null, false],
    ['a query string (?reset adds a banner)', root('/login'), '/login', '?reset', null, false],
    ['a signed-in visitor (sent on from /login)', root('/login'), '/login', '', session, false],
    ['no prerendered HTML (index.html)', root(null), '/login', '', null, false],
  ])('%s', (_name, element, pathname, search, current, expected) => {
    expect(shouldHydrate(element, { pathname, search }, current)).toBe(expected);
  });
});
