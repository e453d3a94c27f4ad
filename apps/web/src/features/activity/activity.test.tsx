import type { ActivityFeed, DaySummary, UserActivityItem } from '@keyward/contract/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  currentLocation,
  fakeServer,
  loggedIn,
  renderApp,
  serverError,
} from '../../../test/helpers';
import { dayRange, toUrlDate } from './activity-dates';
import { lineItem, screenshotItem } from './test-fixtures';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  // jsdom has no scrolling; the feed scrolls the selected item into view
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const CHILD_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
const today = new Date();
const localMidnight = (daysAgo: number) =>
  new Date(today.getFullYear(), today.getMonth(), today.getDate() - daysAgo);
const TODAY = toUrlDate(today);
const DAY_PATH = `/children/${CHILD_ID}/activity/${TODAY}`;
const at = (minutesAfterMidnight: number) =>
  new Date(localMidnight(0).getTime() + minutesAfterMidnight * 60_000).toISOString();

function day(daysAgo: number, numApproved: number, numTotal: number, numFlagged = 0): DaySummary {
  return { date: localMidnight(daysAgo).toISOString(), numApproved, numTotal, numFlagged };
}

function feedOf(items: UserActivityItem[], overrides: Partial<ActivityFeed> = {}): ActivityFeed {
  return { userName: 'Sam', showSuspensionActivity: false, numDeleted: 2, items, ...overrides };
}

describe('summaries', () => {
  test("a child's days: progress, Completed, Flagged, each linking to its day", async () => {
    const calls = fakeServer((op) => {
      if (op === 'ChildActivitySummaries') {
        return { body: { childName: 'Sam', days: [day(0, 2, 5), day(1, 4, 4, 1)] } };
      }
      return serverError('notFound');
    });
    renderApp(`/children/${CHILD_ID}/activity`);
    expect(await screen.findByRole('heading', { name: 'Sam Activity' })).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'ChildActivitySummaries')?.body).toEqual({
      childId: CHILD_ID,
      jsTimezoneOffsetMinutes: new Date().getTimezoneOffset(),
    });

    const todayLink = screen.getByRole('link', { name: /Today/ });
    expect(todayLink).toHaveAttribute('href', DAY_PATH);
    expect(within(todayLink).getByText('2 out of 5 items reviewed')).toBeInTheDocument();
    expect(within(todayLink).queryByText('Completed')).not.toBeInTheDocument();
    expect(within(todayLink).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');

    const yesterday = screen.getByRole('link', { name: /Yesterday/ });
    expect(yesterday).toHaveAttribute(
      'href',
      `/children/${CHILD_ID}/activity/${toUrlDate(localMidnight(1))}`,
    );
    expect(within(yesterday).getByText('4 out of 4 items reviewed')).toBeInTheDocument();
    expect(within(yesterday).getByText('Completed')).toBeInTheDocument();
    expect(within(yesterday).getByText(/Flagged 1/)).toBeInTheDocument();
  });

  test("the child's week at a glance sits above the days (issue 24)", async () => {
    const calls = fakeServer((op) => {
      if (op === 'ChildActivitySummaries') {
        return { body: { childName: 'Sam', days: [day(0, 2, 5)] } };
      }
      if (op === 'ChildActivityInsights') {
        return {
          body: {
            childName: 'Sam',
            keyloggingEnabled: true,
            weekStart: localMidnight(6).toISOString(),
            days: [6, 5, 4, 3, 2, 1, 0].map((daysAgo) => ({
              date: localMidnight(daysAgo).toISOString(),
              numItems: daysAgo === 0 ? 5 : 0,
              numAlerts: daysAgo === 0 ? 1 : 0,
              numFlagged: daysAgo === 0 ? 1 : 0,
            })),
            hours: Array.from({ length: 24 }, (_, hour) => (hour === 10 ? 5 : 0)),
            topApps: [{ appName: 'Discord', numLines: 7 }],
            topRequests: [{ target: 'https://games.example', numRequests: 2 }],
            numItems: 5,
            numFlagged: 1,
            numAlerts: 1,
            alertsByCategory: [{ category: 'selfHarm', numAlerts: 1 }],
            suspendedSeconds: 600,
            falseAlerts: [],
          },
        };
      }
      return serverError('notFound');
    });
    renderApp(`/children/${CHILD_ID}/activity`);
    const week = await screen.findByRole('region', { name: 'This week' });
    expect(calls.find((call) => call.op === 'ChildActivityInsights')?.body).toEqual({
      childId: CHILD_ID,
      jsTimezoneOffsetMinutes: new Date().getTimezoneOffset(),
    });
    expect(
      within(week).getByText('5 items, 1 flagged, 1 alert this week. Filter suspended for 10 min.'),
    ).toBeInTheDocument();
    expect(within(week).getByText('Alerts: Self-harm: 1')).toBeInTheDocument();
    expect(within(week).getByText('Discord')).toBeInTheDocument();
    expect(within(week).getByText('https://games.example')).toBeInTheDocument();
    const byDay = within(week).getByRole('list', { name: 'Items by day' });
    expect(within(byDay).getByRole('link', { name: /5 items, 1 alert$/ })).toHaveAttribute(
      'href',
      DAY_PATH,
    );
    expect(within(week).getByRole('img', { name: '10 am: 5 items' })).toBeInTheDocument();
  });

  test('no activity: the empty state leads back to the children', async () => {
    fakeServer(() => ({ body: { childName: 'Sam', days: [] } }));
    renderApp(`/children/${CHILD_ID}/activity`);
    expect(await screen.findByText('No activity to review')).toBeInTheDocument();
    expect(
      screen.getByText('No activity has been reported from this child in the past two weeks'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to children' })).toHaveAttribute(
      'href',
      '/children',
    );
  });

  test("another parent's child is refused like a missing one", async () => {
    fakeServer(() => serverError('notFound', { entityName: 'Child' }, 404));
    renderApp(`/children/${CHILD_ID}/activity`);
    expect(await screen.findByText('Child not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to children' })).toBeInTheDocument();
  });

  test('the family summaries are All Child Activity and link to the combined day', async () => {
    fakeServer((op) =>
      op === 'FamilyActivitySummaries' ? { body: [day(0, 0, 3)] } : serverError('notFound'),
    );
    renderApp('/children/activity');
    expect(await screen.findByRole('heading', { name: 'All Child Activity' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Today/ })).toHaveAttribute(
      'href',
      `/children/activity/${TODAY}`,
    );
  });

  test('the children cards have an Activity button', async () => {
    fakeServer((op) =>
      op === 'GetUsers'
        ? {
            body: [
              {
                id: CHILD_ID,
                name: 'Sam',
                keyloggingEnabled: true,
                screenshotsEnabled: true,
                screenshotsResolution: 1000,
                screenshotsFrequency: 120,
                showSuspensionActivity: false,
                keychains: [],
                devices: [],
                createdAt: at(0),
              },
            ],
          }
        : serverError('notFound'),
    );
    renderApp('/children');
    expect(await screen.findByRole('link', { name: 'Activity' })).toHaveAttribute(
      'href',
      `/children/${CHILD_ID}/activity`,
    );
    expect(screen.getByRole('link', { name: 'All activity' })).toHaveAttribute(
      'href',
      '/children/activity',
    );
  });
});

type ServerOptions = { failDelete?: boolean; failFlag?: boolean };

function feedServer(
  feed: ActivityFeed,
  { failDelete = false, failFlag = false }: ServerOptions = {},
) {
  return fakeServer((op) => {
    if (op === 'UserActivityFeed') return { body: feed };
    if (op === 'ChildActivitySummaries') return { body: { childName: 'Sam', days: [] } };
    if (op === 'DeleteActivityItems_v2') {
      return failDelete ? serverError('serverError', {}, 500) : { body: { success: true } };
    }
    if (op === 'FlagActivityItems') {
      return failFlag ? serverError('serverError', {}, 500) : { body: { success: true } };
    }
    return serverError('notFound');
  });
}

const items = () => [
  lineItem('l1', {
    ids: ['l1', 'l0'],
    appName: 'Messages',
    line: 'hello\nhow are you',
    createdAt: at(600),
  }),
  screenshotItem('s1', { createdAt: at(590), width: 1440, height: 900 }),
  lineItem('l2', { appName: 'Safari', line: 'homework help', createdAt: at(580) }),
];

describe('day feed', () => {
  test('shows the day: Back, counter, merged lines per app and screenshots', async () => {
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    expect(await screen.findByRole('heading', { name: 'Today' })).toBeInTheDocument();
    await screen.findByText('2 out of 5 items reviewed');
    expect(calls.find((call) => call.op === 'UserActivityFeed')?.body).toEqual({
      userId: CHILD_ID,
      range: dayRange(TODAY),
    });
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute(
      'href',
      `/children/${CHILD_ID}/activity`,
    );
    expect(screen.getByText("Sam's activity")).toBeInTheDocument();

    const lines = screen.getByRole('article', { name: /Messages/ });
    expect(within(lines).getByText(/hello\s+how are you/)).toBeInTheDocument();
    const image = screen.getByRole('img', { name: /Screenshot taken/ });
    expect(image).toHaveAttribute('src', 'https://files.example/s1.jpg?signature=x');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveStyle({ aspectRatio: '1440 / 900' });
    expect(screen.getByText('Keyboard:')).toBeInTheDocument();

    // a click opens the full image; Escape closes it
    await user.click(screen.getByRole('button', { name: /Open the full screenshot/ }));
    const viewer = screen.getByRole('dialog', { name: /Screenshot taken/ });
    expect(within(viewer).getByRole('img')).toHaveAttribute('src', image.getAttribute('src'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('flag and delete one item send its merged ids; a flagged item cannot be deleted', async () => {
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const lines = await screen.findByRole('article', { name: /Messages/ });

    await user.click(within(lines).getByRole('button', { name: 'Flag' }));
    expect(within(lines).getByRole('button', { name: 'Unflag' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(within(lines).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'FlagActivityItems')?.body).toEqual(['l1', 'l0']),
    );
    expect(screen.getByRole('button', { name: 'Delete unflagged' })).toBeInTheDocument();

    const shot = screen.getByRole('article', { name: /^Screenshot/ });
    await user.click(within(shot).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('article', { name: /^Screenshot/ })).not.toBeInTheDocument();
    expect(screen.getByText('3 out of 5 items reviewed')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DeleteActivityItems_v2')?.body).toEqual({
        keystrokeLineIds: [],
        screenshotIds: ['s1'],
      }),
    );
  });

  test('a refused delete brings the item back with a message', async () => {
    feedServer(feedOf(items()), { failDelete: true });
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const shot = await screen.findByRole('article', { name: /^Screenshot/ });
    await user.click(within(shot).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to delete activity. Please try again.',
    );
    expect(screen.getByRole('article', { name: /^Screenshot/ })).toBeInTheDocument();
    expect(screen.getByText('2 out of 5 items reviewed')).toBeInTheDocument();
  });

  test('a refused flag is undone with a message', async () => {
    feedServer(feedOf(items()), { failFlag: true });
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const lines = await screen.findByRole('article', { name: /Messages/ });
    await user.click(within(lines).getByRole('button', { name: 'Flag' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to flag activity.');
    expect(within(lines).getByRole('button', { name: 'Flag' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  test('keyboard: j/k and arrows move, f flags, d deletes the selected item', async () => {
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const first = await screen.findByRole('article', { name: /Messages/ });
    expect(first).toHaveAttribute('aria-current', 'true');

    await user.keyboard('j');
    expect(screen.getByRole('article', { name: /^Screenshot/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    // issue 20: the item j/k selects is read out by a polite live region
    const announced = screen.getByText(/^Screenshot, .+, selected, 2 of 3$/);
    expect(announced).toHaveAttribute('aria-live', 'polite');
    await user.keyboard('{ArrowDown}');
    const safari = screen.getByRole('article', { name: /Safari/ });
    expect(safari).toHaveAttribute('aria-current', 'true');
    expect(announced).toHaveTextContent(/^Safari, .+, selected, 3 of 3$/);
    await user.keyboard('f');
    expect(within(safari).getByRole('button', { name: 'Unflag' })).toBeInTheDocument();
    await user.keyboard('d'); // flagged: kept
    expect(screen.getByRole('article', { name: /Safari/ })).toBeInTheDocument();

    await user.keyboard('k{ArrowUp}');
    expect(first).toHaveAttribute('aria-current', 'true');
    expect(announced).toHaveTextContent(/^Messages, .+, selected, 1 of 3$/);
    await user.keyboard('d');
    expect(screen.queryByRole('article', { name: /Messages/ })).not.toBeInTheDocument();
    // the selection moves on to the next item
    expect(screen.getByRole('article', { name: /^Screenshot/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await waitFor(() =>
      expect(
        calls.filter((call) => call.op === 'DeleteActivityItems_v2').map((c) => c.body),
      ).toEqual([{ keystrokeLineIds: ['l1', 'l0'], screenshotIds: [] }]),
    );
    expect(calls.find((call) => call.op === 'FlagActivityItems')?.body).toEqual(['l2']);
  });

  // issue 20: a delete-all asks with its count and can be undone until its toast ends
  test('Delete all asks with the count, is undoable for 8 s, then reviews everything and goes back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp(DAY_PATH);
    await screen.findByRole('article', { name: /Messages/ });
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete all activity?' });
    expect(dialog).toHaveTextContent('All 3 items of this day will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 3 items' }));
    expect(screen.getByText('3 items deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: /Messages/ })).not.toBeInTheDocument();
    const deleted = () => calls.filter((call) => call.op === 'DeleteActivityItems_v2');
    await act(() => vi.advanceTimersByTimeAsync(7000));
    expect(deleted()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() =>
      expect(deleted().map((call) => call.body)).toEqual([
        { keystrokeLineIds: ['l1', 'l0', 'l2'], screenshotIds: ['s1'] },
      ]),
    );
    expect(await screen.findByText('All caught up!')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(currentLocation()).toBe(`/children/${CHILD_ID}/activity`));
    vi.useRealTimers();
  });

  test('Undo brings every item back and nothing is deleted', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp(DAY_PATH);
    await screen.findByRole('article', { name: /Messages/ });
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    await user.click(screen.getByRole('button', { name: 'Delete 3 items' }));
    expect(screen.getByText('5 out of 5 items reviewed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.getByRole('article', { name: /Messages/ })).toBeInTheDocument();
    expect(screen.getByText('2 out of 5 items reviewed')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(calls.some((call) => call.op === 'DeleteActivityItems_v2')).toBe(false);
    expect(currentLocation()).toBe(DAY_PATH);
    vi.useRealTimers();
  });

  test('Cancel in the question deletes nothing', async () => {
    const calls = feedServer(feedOf(items()));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    await screen.findByRole('article', { name: /Messages/ });
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: /Messages/ })).toBeInTheDocument();
    expect(calls.some((call) => call.op === 'DeleteActivityItems_v2')).toBe(false);
  });

  test('Delete unflagged keeps the flagged items and goes back 2 s after the delete', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const feed = feedOf([...items(), screenshotItem('s9', { createdAt: at(10), flagged: true })]);
    const calls = feedServer(feed);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp(DAY_PATH);
    await screen.findByRole('article', { name: /Messages/ });
    await user.click(screen.getByRole('button', { name: 'Delete unflagged' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete unflagged activity?' });
    expect(dialog).toHaveTextContent('3 unflagged items of this day will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 3 items' }));
    await act(() => vi.advanceTimersByTimeAsync(8000));
    expect(await screen.findByText(/1 flagged item kept/)).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'DeleteActivityItems_v2')?.body).toEqual({
      keystrokeLineIds: ['l1', 'l0', 'l2'],
      screenshotIds: ['s1'],
    });
    expect(screen.getByRole('article', { name: /^Screenshot/ })).toBeInTheDocument();
    // the fake clock also runs with the real one (shouldAdvanceTime): on a loaded machine the
    // steps since the answer have taken a few hundred real milliseconds already
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(currentLocation()).toBe(DAY_PATH);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(currentLocation()).toBe(`/children/${CHILD_ID}/activity`));
    vi.useRealTimers();
  });

  test("'Delete previous 100 items' reviews the items above it", async () => {
    const many = Array.from({ length: 150 }, (_, i) =>
      screenshotItem(`s${i}`, { createdAt: at(1000 - i), flagged: i === 0 }),
    );
    const calls = feedServer(feedOf(many, { numDeleted: 0 }));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const button = await screen.findByRole('button', { name: 'Delete previous 99 items' });
    await user.click(button);
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DeleteActivityItems_v2')?.body).toEqual({
        keystrokeLineIds: [],
        screenshotIds: many.slice(1, 100).map((item) => item.id),
      }),
    );
    expect(screen.getByText('99 out of 150 items reviewed')).toBeInTheDocument();
  }, 15_000);

  test('nothing left to review: All caught up!', async () => {
    feedServer(feedOf([]));
    renderApp(DAY_PATH);
    expect(await screen.findByRole('heading', { name: 'All caught up!' })).toBeInTheDocument();
    expect(screen.getByText('2 out of 2 items reviewed')).toBeInTheDocument();
  });

  test('suspension activity is grouped and highlighted when the child shows it', async () => {
    const feed = feedOf(
      [
        screenshotItem('s1', { createdAt: at(600), duringSuspension: true }),
        lineItem('l1', { createdAt: at(597), appName: 'Discord' }),
        lineItem('l2', { createdAt: at(500), appName: 'Pages' }),
      ],
      { showSuspensionActivity: true },
    );
    feedServer(feed);
    renderApp(DAY_PATH);
    expect(await screen.findAllByText('During a filter suspension')).toHaveLength(1);
  });

  test('not highlighted when the child does not show suspension activity', async () => {
    feedServer(feedOf([screenshotItem('s1', { createdAt: at(600), duringSuspension: true })]));
    renderApp(DAY_PATH);
    await screen.findByRole('article', { name: /^Screenshot/ });
    expect(screen.queryByText('During a filter suspension')).not.toBeInTheDocument();
  });

  test('a malformed day in the address is not found', async () => {
    feedServer(feedOf([]));
    renderApp(`/children/${CHILD_ID}/activity/2026-02-30`);
    expect(await screen.findByText('Activity day not found.')).toBeInTheDocument();
  });
});

describe('alerts in the day feed (issue 24)', () => {
  const alerted = () => [
    ...items(),
    lineItem('a1', {
      appName: 'Discord',
      line: 'i wanna diiiie',
      createdAt: at(570),
      flagged: true,
      alert: { category: 'selfHarm', words: ['wanna die'] },
    }),
  ];

  test('the alert shows first with its category; the toggle restores newest first', async () => {
    feedServer(feedOf(alerted()));
    const user = userEvent.setup();
    renderApp(DAY_PATH);
    const feed = await screen.findByRole('feed', { name: 'Activity' });
    const names = () =>
      within(feed)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label'));
    expect(names()[0]).toMatch(/^Discord, .*, alert: Self-harm$/);
    const card = within(feed).getAllByRole('article')[0]!;
    expect(within(card).getByText('Alert: Self-harm')).toBeInTheDocument();
    expect(within(card).getByText('Matched: "wanna die"')).toBeInTheDocument();
    expect(card).toHaveAttribute('aria-current', 'true');

    const toggle = screen.getByRole('switch', { name: 'Show alerts and flagged first' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle);
    expect(names()[0]).toMatch(/^Messages/);
    expect(names().at(-1)).toMatch(/^Discord/);

    // Next alert (or the a key) selects it wherever it is
    await user.click(screen.getByRole('button', { name: 'Next alert (1)' }));
    expect(within(feed).getByRole('article', { name: /^Discord/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  test('a day without alerts or flags shows no toggle', async () => {
    feedServer(feedOf(items()));
    renderApp(DAY_PATH);
    await screen.findByRole('feed', { name: 'Activity' });
    expect(
      screen.queryByRole('switch', { name: 'Show alerts and flagged first' }),
    ).not.toBeInTheDocument();
  });
});

describe('family day feed', () => {
  test('one section per child, each item named by its child', async () => {
    const calls = fakeServer((op) =>
      op === 'CombinedUsersActivityFeed'
        ? {
            body: [
              feedOf([lineItem('a', { createdAt: at(600) })], { userName: 'Sam', numDeleted: 1 }),
              feedOf([screenshotItem('b', { createdAt: at(610) })], {
                userName: 'Kim',
                numDeleted: 0,
              }),
            ],
          }
        : serverError('notFound'),
    );
    renderApp(`/children/activity/${TODAY}`);
    expect(await screen.findByRole('heading', { name: 'Sam' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Kim' })).toBeInTheDocument();
    // issue 32: the feed holds articles only (axe aria-required-children), headings inside them
    const feed = screen.getByRole('feed', { name: 'Activity' });
    for (const heading of within(feed).getAllByRole('heading')) {
      expect(heading.closest('article, [role="article"]')).not.toBeNull();
    }
    for (const row of feed.children) {
      expect(row.querySelector('article, [role="article"]')).not.toBeNull();
    }
    expect(screen.getByText('1 out of 3 items reviewed')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'CombinedUsersActivityFeed')?.body).toEqual({
      range: dayRange(TODAY),
    });
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute(
      'href',
      '/children/activity',
    );
  });
});
