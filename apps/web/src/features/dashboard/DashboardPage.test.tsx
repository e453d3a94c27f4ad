import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { childOf } from '../children/test-fixtures';
import { KIM_ID, requestOf, SAM_ID, widgetsOf } from './test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const section = async (heading: string) =>
  (await screen.findByRole('heading', { name: heading })).closest('section') as HTMLElement;

describe('dashboard, situation 3: no children', () => {
  test('welcome text, Add a child, the how-to guide and the getting-started guide', async () => {
    fakeServer(() => ({
      body: widgetsOf({ children: [], childActivitySummaries: [], recentScreenshots: [] }),
    }));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome to Keyward' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a child' })).toHaveAttribute(
      'href',
      '/children/new',
    );
    const video = screen.getByRole('link', { name: /Read the how-to guide/ });
    expect(video).toHaveAttribute('href', '/help/how-to-video');
    expect(video).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: /getting-started guide/ })).toHaveAttribute(
      'href',
      '/help/getting-started',
    );
  });
});

describe('dashboard, situation 1: the first child has no computer', () => {
  test('two steps and a connection code', async () => {
    fakeServer((op) => {
      if (op === 'DashboardWidgets')
        return {
          body: widgetsOf({
            children: [
              { id: SAM_ID, name: 'Sam', status: { case: 'offline' }, numDevices: 0 },
              { id: KIM_ID, name: 'Kim', status: { case: 'filterOn' }, numDevices: 1 },
            ],
          }),
        };
      if (op === 'GetUser') return { body: childOf({ id: SAM_ID, name: 'Sam' }) };
      if (op === 'CreatePendingAppConnection') return { body: { code: 654321 } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: "Let's connect Sam's computer" }),
    ).toBeInTheDocument();
    // issue 32: no "Download the Mac app" to a page without a download: what works, per device
    expect(screen.queryByRole('link', { name: 'Download the Mac app' })).not.toBeInTheDocument();
    expect(screen.getByText(/no download from Keyward/)).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', { name: 'How to install it' }).map((a) => a.getAttribute('href')),
    ).toEqual(['/help/chrome-filter', '/help/mac-app', '/help/ios-app', '/help/chrome-filter']);
    await user.click(screen.getByRole('button', { name: 'Get connection code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    expect(await within(dialog).findByText('654321')).toBeInTheDocument();
  }, 15_000);
});

describe('dashboard, situation 2: children with computers', () => {
  test('greeting, children with status, activity, screenshots and quick actions', async () => {
    fakeServer(() => ({ body: widgetsOf() }));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Your family' })).toBeInTheDocument();
    expect(screen.getByText(/^Good (morning|afternoon|evening)!$/)).toBeInTheDocument();

    const children = await section('Children');
    const sam = within(children).getByRole('link', { name: /Sam/ });
    expect(sam).toHaveAttribute('href', `/children/${SAM_ID}`);
    expect(sam).toHaveTextContent('2 computers');
    expect(sam).toHaveTextContent('Filter on');
    expect(within(children).getByRole('link', { name: /Kim/ })).toHaveTextContent('Offline');

    const activity = await section('Activity');
    expect(activity).toHaveTextContent('12 items from the past two weeks to review.');
    expect(within(activity).getByRole('link', { name: /Sam/ })).toHaveAttribute(
      'href',
      `/children/${SAM_ID}/activity`,
    );
    expect(within(activity).getByRole('link', { name: /Sam/ })).toHaveTextContent('12 unreviewed');
    expect(within(activity).getByRole('link', { name: /Kim/ })).toHaveTextContent('All reviewed');

    const screenshots = await section('Recent screenshots');
    const image = within(screenshots).getByRole('img', { name: "Sam's screen, 5 minutes ago" });
    expect(image).toHaveAttribute('src', '/screenshots/demo/sam.jpg?expires=1&signature=x');
    expect(within(screenshots).getByRole('link')).toHaveAttribute(
      'href',
      `/children/${SAM_ID}/activity`,
    );

    const actions = await section('Quick actions');
    expect(within(actions).getByRole('link', { name: 'Add a child' })).toHaveAttribute(
      'href',
      '/children/new',
    );
    expect(within(actions).getByRole('link', { name: 'Create a keychain' })).toHaveAttribute(
      'href',
      '/keychains/new',
    );
    expect(within(actions).getByRole('link', { name: 'Documentation' })).toHaveAttribute(
      'href',
      '/help/documentation',
    );
    expect(within(actions).getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      '/help/support',
    );
    // the parent has a notification: no create-first-notification card, no announcement, no requests
    expect(screen.queryByRole('heading', { name: 'Create your first notification' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Pending unlock requests' })).toBeNull();
  });

  test("up to 2 pending requests, 'And N older' and View all", async () => {
    fakeServer(() => ({
      body: widgetsOf({ unlockRequests: [requestOf(1, 50), requestOf(2, 5), requestOf(3, 20)] }),
    }));
    renderApp('/');
    const widget = await section('Pending unlock requests');
    const links = within(widget).getAllByRole('link', { name: /Review/ });
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute(
      'href',
      `/children/${SAM_ID}/unlock-requests/a0000000-0000-4000-8000-000000000002`,
    );
    expect(links[0]).toHaveTextContent('site2.example.com');
    expect(within(widget).getByText('And 1 older')).toBeInTheDocument();
    expect(within(widget).getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/unlock-requests',
    );
  });

  test('no notifications yet: the create-first-notification card links to Settings', async () => {
    fakeServer(() => ({ body: widgetsOf({ numParentNotifications: 0 }) }));
    renderApp('/');
    const card = await section('Create your first notification');
    expect(within(card).getByRole('link', { name: 'Set up notifications' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  test('the announcement: Learn more opens a new tab, Dismiss hides it and tells the server', async () => {
    const announcement = {
      id: 'd0000000-0000-4000-8000-000000000001',
      html: '<b>New:</b> weekly email summaries',
      learnMoreUrl: 'https://example.com/news',
    };
    let isDismissed = false;
    const calls = fakeServer((op) => {
      if (op === 'DeleteEntity_v2') {
        isDismissed = true;
        return { body: { success: true } };
      }
      return { body: widgetsOf(isDismissed ? {} : { announcement }) };
    });
    const user = userEvent.setup();
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Announcement' });
    expect(within(banner).getByText('New:').tagName).toBe('STRONG');
    expect(within(banner).getByRole('link', { name: /^Learn more/ })).toHaveAttribute(
      'target',
      '_blank',
    );
    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
        type: 'announcement',
        id: announcement.id,
      }),
    );
  });

  test('a failed load shows the error', async () => {
    fakeServer(() => serverError('serverError', { userMessage: 'The database is asleep.' }, 500));
    renderApp('/');
    expect(await screen.findByText('The database is asleep.')).toBeInTheDocument();
  });
});
