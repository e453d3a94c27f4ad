import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { guardedLinkDestination, useNavigationGuard } from './navigation-guard';

const here = { origin: 'http://localhost:3000', pathname: '/children/1', search: '', hash: '' };

function click(anchor: Partial<HTMLAnchorElement> & { href?: string }, event = {}) {
  const a = document.createElement('a');
  if (anchor.href !== undefined) a.setAttribute('href', anchor.href);
  if (anchor.target) a.target = anchor.target;
  if (anchor.download) a.setAttribute('download', '');
  const span = document.createElement('span');
  a.append(span);
  return {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
    target: span,
    ...event,
  };
}

describe('which clicks the guard stops', () => {
  test.each<[string, ReturnType<typeof click>, string | null]>([
    ['an in-app link', click({ href: '/keychains' }), '/keychains'],
    ['a relative link, as the browser resolves it', click({ href: 'new?x=1' }), '/new?x=1'],
    ['a full URL to this origin', click({ href: 'http://localhost:3000/#top' }), '/#top'],
    ['the page itself', click({ href: '/children/1' }), null],
    ['another site', click({ href: 'https://example.com/' }), null],
    ['a new tab', click({ href: '/keychains', target: '_blank' }), null],
    ['a download', click({ href: '/file.csv', download: 'x' } as never), null],
    ['a ctrl-click', click({ href: '/keychains' }, { ctrlKey: true }), null],
    ['a cmd-click', click({ href: '/keychains' }, { metaKey: true }), null],
    ['a middle click', click({ href: '/keychains' }, { button: 1 }), null],
    ['an already handled click', click({ href: '/keychains' }, { defaultPrevented: true }), null],
    ['not a link', { ...click({}), target: document.createElement('button') }, null],
  ])('%s', (_case, event, expected) => {
    expect(guardedLinkDestination(event, here)).toBe(expected);
  });
});

function GuardedPage() {
  const [isChanged, setIsChanged] = useState(false);
  const guard = useNavigationGuard(isChanged);
  return (
    <div>
      <button type="button" onClick={() => setIsChanged(!isChanged)}>
        {isChanged ? 'Save' : 'Edit'}
      </button>
      {guard.isAsking && (
        <div role="dialog" aria-label="Leave without saving?">
          <button type="button" onClick={guard.stay}>
            Keep editing
          </button>
          <button type="button" onClick={guard.leave}>
            Leave
          </button>
        </div>
      )}
    </div>
  );
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderGuarded() {
  return render(
    <BrowserRouter>
      <nav>
        <Link to="/other">Other page</Link>
      </nav>
      <Routes>
        <Route path="/edit" element={<GuardedPage />} />
        <Route path="/other" element={<p>Other</p>} />
        <Route path="/" element={<Link to="/edit">Edit page</Link>} />
      </Routes>
      <Where />
    </BrowserRouter>,
  );
}

const where = () => screen.getByTestId('where').textContent;

function beforeUnloadIsStopped(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('useNavigationGuard', () => {
  test('without changes, links, Back and closing the tab go unasked', async () => {
    const user = userEvent.setup();
    renderGuarded();
    await user.click(screen.getByRole('link', { name: 'Edit page' }));
    expect(where()).toBe('/edit');
    expect(beforeUnloadIsStopped()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(where()).toBe('/other');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('with changes, a link asks; Keep editing stays, Leave follows the link', async () => {
    const user = userEvent.setup();
    renderGuarded();
    await user.click(screen.getByRole('link', { name: 'Edit page' }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));

    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(screen.getByRole('dialog', { name: 'Leave without saving?' })).toBeInTheDocument();
    expect(where()).toBe('/edit');
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(where()).toBe('/edit');

    await user.click(screen.getByRole('link', { name: 'Other page' }));
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(where()).toBe('/other');
    expect(window.location.pathname).toBe('/other');

    // One Back returns to the edited page (the guard's copy entry was replaced), a second one
    // to the page before it.
    act(() => window.history.back());
    await waitFor(() => expect(where()).toBe('/edit'));
    act(() => window.history.back());
    await waitFor(() => expect(where()).toBe('/'));
  });

  test('with changes, closing or reloading the tab asks (beforeunload); after saving it does not', async () => {
    const user = userEvent.setup();
    renderGuarded();
    await user.click(screen.getByRole('link', { name: 'Edit page' }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(beforeUnloadIsStopped()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(beforeUnloadIsStopped()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(where()).toBe('/other');
  });

  test('with changes, Back asks; Keep editing stays (and asks again), Leave goes back', async () => {
    const user = userEvent.setup();
    renderGuarded();
    await user.click(screen.getByRole('link', { name: 'Edit page' }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));

    act(() => window.history.back());
    expect(
      await screen.findByRole('dialog', { name: 'Leave without saving?' }),
    ).toBeInTheDocument();
    expect(where()).toBe('/edit');
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(where()).toBe('/edit');

    act(() => window.history.back());
    expect(
      await screen.findByRole('dialog', { name: 'Leave without saving?' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe('/'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('a click the page handles itself is left alone', async () => {
    renderGuarded();
    fireEvent.click(screen.getByRole('link', { name: 'Edit page' }));
    expect(where()).toBe('/edit');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    // a button is not a way out
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
