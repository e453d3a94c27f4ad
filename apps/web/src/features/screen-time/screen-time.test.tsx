import type { MoreTimeInboxItem, User } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { childOf } from '../children/test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const CHILD = '22222222-2222-4222-8222-222222222222';
const REQUEST = 'a1000000-0000-4000-8000-000000000034';
const NO_LIMIT = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

const request: MoreTimeInboxItem = {
  id: REQUEST,
  childId: CHILD,
  childName: 'Emma',
  device: {
    kind: 'browser',
    id: '33333333-3333-4333-8333-333333333333',
    name: 'Chrome on Windows',
  },
  createdAt: new Date(Date.now() - 2 * 60_000).toISOString(),
  requestComment: 'finishing my essay',
  requestedMinutes: 30,
};

describe('more time in the inbox', () => {
  test('the request shows with its comment; Allow 30 minutes grants what was asked', async () => {
    let moreTime = [request];
    const calls = fakeServer((op) => {
      if (op === 'GetInbox') return { body: { items: [], alerts: [], moreTime } };
      if (op === 'DecideMoreTimeRequest') {
        moreTime = [];
        return { body: { success: true } };
      }
      if (op === 'DashboardWidgets' || op === 'GetFamilyDevices') return { body: [] };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/inbox');
    const card = (await screen.findByRole('heading', { name: 'Asking for more time' })).closest(
      'section',
    ) as HTMLElement;
    const row = within(card).getByRole('article', { name: 'Emma: asks for 30 more minutes' });
    expect(row).toHaveTextContent('Emma asks for 30 minutes more today');
    expect(row).toHaveTextContent('“finishing my essay”');
    await user.click(within(row).getByRole('button', { name: 'Allow 30 minutes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DecideMoreTimeRequest')?.body).toEqual({
        id: REQUEST,
        decision: { case: 'accepted', minutes: 30 },
      }),
    );
    expect(await within(card).findByRole('status')).toHaveTextContent(
      'You gave Emma 30 minutes more today.',
    );
    // the sidebar counts it until it is decided
  });

  test('Deny says no', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetInbox') return { body: { items: [], alerts: [], moreTime: [request] } };
      if (op === 'DecideMoreTimeRequest') return { body: { success: true } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/inbox');
    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DecideMoreTimeRequest')?.body).toEqual({
        id: REQUEST,
        decision: { case: 'rejected' },
      }),
    );
    expect(await screen.findByText('You said no to Emma.')).toBeInTheDocument();
  });
});

describe('the child page', () => {
  const emma = (screenTime: User['screenTime']): User =>
    childOf({
      id: CHILD,
      name: 'Emma',
      keychains: [
        {
          id: '44444444-4444-4444-8444-444444444444',
          parentId: '11111111-1111-4111-8111-111111111111',
          name: 'School',
          isPublic: false,
          numKeys: 3,
        },
      ],
      devices: [
        {
          id: '55555555-5555-4555-8555-555555555555',
          deviceId: '66666666-6666-4666-8666-666666666666',
          status: { case: 'filterOn' },
          modelFamily: 'unknown',
          modelTitle: 'Chrome on Windows',
          modelIdentifier: 'browser:Chrome:windows',
        },
      ],
      ...(screenTime ? { screenTime } : {}),
    });

  test('Pause internet for 15 minutes, then Resume internet', async () => {
    let user_ = emma({ allowance: NO_LIMIT, exemptKeychainIds: [], timeZone: 'UTC' });
    const calls = fakeServer((op) => {
      if (op === 'GetUser') return { body: user_ };
      if (op === 'PauseInternet') {
        user_ = {
          ...user_,
          screenTime: { ...user_.screenTime!, pause: { until: '2026-12-07T10:15:00Z' } },
        };
        return { body: { success: true } };
      }
      if (op === 'ResumeInternet') {
        const { pause: _, ...rest } = user_.screenTime!;
        user_ = { ...user_, screenTime: rest };
        return { body: { success: true } };
      }
      if (op === 'GetInbox') return { body: { items: [], alerts: [] } };
      if (op === 'GetFamilyDevices') return { body: [] };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${CHILD}`);
    await user.click(await screen.findByRole('button', { name: 'Pause internet' }));
    await user.click(screen.getByRole('button', { name: 'Pause for 15 minutes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'PauseInternet')?.body).toEqual({
        childId: CHILD,
        minutes: 15,
      }),
    );
    expect(await screen.findByText(/Paused until/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume internet' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'ResumeInternet')?.body).toEqual({ childId: CHILD }),
    );
    expect(await screen.findByRole('button', { name: 'Pause internet' })).toBeInTheDocument();
  });

  test('Pause until I resume sends no length', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetUser')
        return { body: emma({ allowance: NO_LIMIT, exemptKeychainIds: [], timeZone: 'UTC' }) };
      if (op === 'PauseInternet') return { body: { success: true } };
      if (op === 'GetInbox') return { body: { items: [], alerts: [] } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${CHILD}`);
    await user.click(await screen.findByRole('button', { name: 'Pause internet' }));
    await user.click(screen.getByRole('button', { name: 'Pause until I resume' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'PauseInternet')?.body).toEqual({
        childId: CHILD,
        minutes: null,
      }),
    );
  });

  test('the screen-time editor saves a limit and a keychain that does not use up time', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetUser')
        return { body: emma({ allowance: NO_LIMIT, exemptKeychainIds: [], timeZone: 'UTC' }) };
      if (op === 'SaveScreenTime') return { body: { success: true } };
      if (op === 'GetInbox') return { body: { items: [], alerts: [] } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${CHILD}`);
    const section = (await screen.findByRole('heading', { name: 'Screen time' })).closest(
      'section',
    ) as HTMLElement;
    const save = within(section).getByRole('button', { name: 'Save screen time' });
    expect(save).toBeDisabled();
    const mondayRow = within(section).getByText('Monday').closest('li') as HTMLElement;
    await user.click(within(mondayRow).getByRole('checkbox', { name: 'Limit' }));
    const minutes = within(section).getByRole('spinbutton', { name: 'Monday minutes' });
    await user.clear(minutes);
    await user.type(minutes, '75');
    expect(within(section).getByRole('alert')).toHaveTextContent('Minutes on Monday go up to 59.');
    expect(save).toBeDisabled();
    await user.clear(minutes);
    await user.type(minutes, '30');
    await user.click(within(section).getByRole('switch', { name: 'School' }));
    await user.click(save);
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'SaveScreenTime')?.body).toEqual({
        childId: CHILD,
        allowance: { ...NO_LIMIT, monday: 150 },
        exemptKeychainIds: ['44444444-4444-4444-8444-444444444444'],
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    );
  });
});
