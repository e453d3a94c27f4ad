import type { InboxItem } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { widgetsOf } from '../dashboard/test-fixtures';
import { EMMA_ID, itemOf } from './test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.title = 'Keyward';
});

const MAC_REQUEST = 'a1000000-0000-4000-8000-000000000001';
const IPAD_REQUEST = 'a1000000-0000-4000-8000-000000000002';
const UNLOCK_REQUEST = 'a1000000-0000-4000-8000-000000000003';

const ALL: InboxItem[] = [
  itemOf({ id: MAC_REQUEST, childName: 'Emma', minutesAgo: 2, comment: 'school video' }),
  itemOf({ id: IPAD_REQUEST, childName: 'Noah', minutesAgo: 1, onIpad: true }),
  itemOf({ id: UNLOCK_REQUEST, childName: 'Emma', minutesAgo: 20, target: 'https://example.com' }),
];

/** A family with requests waiting; deciding one removes it from the next answers. */
function serve(initial: InboxItem[] = ALL, more?: unknown) {
  let items = initial;
  const calls = fakeServer((op, body) => {
    if (op === 'GetInbox') return { body: more === undefined ? { items } : { items, more } };
    if (op === 'DashboardWidgets') return { body: widgetsOf() };
    if (op === 'GetFamilyDevices' || op === 'IOSDevices') return { body: [] };
    if (op === 'DecideFilterSuspensionRequest') {
      const id = (body as { id: string }).id;
      items = items.filter((item) => item.id !== id);
      return { body: { success: true } };
    }
    return serverError('notFound');
  });
  return calls;
}

const needsYou = async () =>
  (await screen.findByRole('heading', { name: /^Needs you/ })).closest('section') as HTMLElement;

describe('Needs you on the home page, the sidebar badge and the tab title', () => {
  test('every waiting request of every device, grouped by child, newest first', async () => {
    serve();
    renderApp('/');
    const section = await needsYou();
    const groups = within(section).getAllByRole('heading', { level: 3 });
    expect(groups.map((heading) => heading.textContent)).toEqual(['Noah', 'Emma']);
    const ipad = within(section).getByRole('article', {
      name: 'Noah: Wants the filter off for 10 minutes',
    });
    expect(ipad).toHaveTextContent('iPad');
    const mac = within(section).getByRole('article', {
      name: 'Emma: Wants the filter off for 10 minutes',
    });
    expect(mac).toHaveTextContent('MacBook Air');
    expect(mac).toHaveTextContent('“school video”');
    const unlock = within(section).getByRole('article', {
      name: 'Emma: Asks to unlock https://example.com',
    });
    expect(within(unlock).getByRole('link', { name: 'Review' })).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}/unlock-requests/${UNLOCK_REQUEST}/review`,
    );

    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: /Needs you/ })).toHaveTextContent(
      'Needs you3 waiting',
    );
    await waitFor(() => expect(document.title).toBe('(3) Keyward'));
  });

  test('a suspension request is decided inline; the list, badge and title follow', async () => {
    const calls = serve();
    const user = userEvent.setup();
    renderApp('/');
    const section = await needsYou();
    const ipad = within(section).getByRole('article', { name: /^Noah:/ });
    await user.click(within(ipad).getByRole('button', { name: 'Decide' }));
    // the spec's durations and no extra monitoring for an iPad
    const duration = within(ipad).getByRole('combobox', { name: 'Suspend the filter for' });
    expect(within(duration).getByRole('option', { name: '2 hours' })).toBeInTheDocument();
    expect(within(ipad).queryByText('Extra monitoring')).toBeNull();
    await user.selectOptions(duration, '1200');
    await user.click(within(ipad).getByRole('button', { name: 'Grant suspension' }));

    await waitFor(() =>
      expect(within(section).queryByRole('article', { name: /^Noah:/ })).toBeNull(),
    );
    expect(calls.filter((call) => call.op === 'DecideFilterSuspensionRequest')[0]?.body).toEqual({
      id: IPAD_REQUEST,
      decision: { case: 'accepted', durationInSeconds: 1200 },
    });
    await waitFor(() => expect(document.title).toBe('(2) Keyward'));

    // Deny with a comment
    const mac = within(section).getByRole('article', { name: /Wants the filter off/ });
    await user.click(within(mac).getByRole('button', { name: 'Decide' }));
    await user.type(within(mac).getByRole('textbox', { name: 'Comment for Emma' }), 'Not now');
    await user.click(within(mac).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(document.title).toBe('(1) Keyward'));
    expect(calls.filter((call) => call.op === 'DecideFilterSuspensionRequest')[1]?.body).toEqual({
      id: MAC_REQUEST,
      decision: { case: 'rejected' },
      responseComment: 'Not now',
    });
  }, 20_000);

  test('it empties as the parent decides, and says so', async () => {
    serve([itemOf({ id: IPAD_REQUEST, childName: 'Noah', onIpad: true })]);
    const user = userEvent.setup();
    renderApp('/');
    const section = await needsYou();
    await user.click(within(section).getByRole('button', { name: 'Decide' }));
    await user.click(within(section).getByRole('button', { name: 'Deny' }));
    expect(
      await within(section).findByText('All answered! Nothing else is waiting for you.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Keyward'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Needs you' })).toBeInTheDocument();
  }, 15_000);

  test('nothing waiting: no section on home', async () => {
    serve([]);
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Your family' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Needs you/ })).toBeNull();
  });

  test('home shows 5, then "And N more" with a link to the inbox page', async () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      itemOf({ id: `a2000000-0000-4000-8000-00000000000${i}`, minutesAgo: i + 1 }),
    );
    serve(many);
    renderApp('/');
    const section = await needsYou();
    expect(within(section).getAllByRole('article')).toHaveLength(5);
    expect(section).toHaveTextContent('And 2 more.');
    expect(
      within(section).getByRole('link', { name: 'See everything that needs you' }),
    ).toHaveAttribute('href', '/inbox');
  });
});

describe('/inbox', () => {
  test('the page lists everything and says when all is answered', async () => {
    serve();
    renderApp('/inbox');
    expect(
      await screen.findByRole('heading', { level: 1, name: /^Needs you/ }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: /Needs you/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('nothing waiting', async () => {
    serve([]);
    renderApp('/inbox');
    expect(
      await screen.findByText('All caught up! No requests are waiting for you.'),
    ).toBeInTheDocument();
  });

  test('a child the server lists only a page of: "And N more from Emma" (issue 31)', async () => {
    serve(ALL, [{ childId: EMMA_ID, childName: 'Emma', count: 39_975 }]);
    renderApp('/inbox');
    const heading = await screen.findByRole('heading', { level: 1, name: /^Needs you/ });
    const section = heading.closest('section') as HTMLElement;
    expect(heading).toHaveTextContent('39978');
    expect(section).toHaveTextContent('And 39975 more from Emma.');
    expect(
      within(section).getByRole('link', { name: "See all of Emma's requests" }),
    ).toHaveAttribute('href', `/children/${EMMA_ID}/unlock-requests`);
    await waitFor(() => expect(document.title).toBe('(39978) Keyward'));
  });
});

describe('home with requests the server only counted (issue 31)', () => {
  test('a count the server stopped: "at least"', async () => {
    serve(ALL, [{ childId: EMMA_ID, childName: 'Emma', count: 1975, isAtLeast: true }]);
    renderApp('/inbox');
    const heading = await screen.findByRole('heading', { level: 1, name: /^Needs you/ });
    expect(heading.closest('section')).toHaveTextContent('And at least 1975 more from Emma.');
  });

  test('"And N more" counts them too', async () => {
    serve(ALL, [{ childId: EMMA_ID, childName: 'Emma', count: 10 }]);
    renderApp('/');
    const section = await needsYou();
    expect(within(section).getAllByRole('article')).toHaveLength(3);
    expect(section).toHaveTextContent('And 10 more.');
  });
});
