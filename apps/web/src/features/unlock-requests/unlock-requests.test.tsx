import type { FamilyDevice, UnlockRequest } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  currentLocation,
  fakeServer,
  loggedIn,
  renderApp,
  serverError,
} from '../../../test/helpers';
import { childOf, computerOf } from '../children/test-fixtures';
import { adminKeychainOf } from '../keychains/test-fixtures';
import { EMMA_ID, LEO_ID, REQUEST_ID, SCHOOL_ID, unlockRequestOf } from './test-fixtures';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const BASE = `/children/${EMMA_ID}/unlock-requests/${REQUEST_ID}`;

describe('unlock request lists', () => {
  test('all children: pending first, each card with child, time ago, target, comment', async () => {
    fakeServer((op) =>
      op === 'GetUnlockRequestsPage'
        ? {
            body: {
              requests: [
                unlockRequestOf({
                  id: 'a0000000-0000-4000-8000-000000000001',
                  status: 'accepted',
                  createdAt: minutesAgo(1),
                  url: 'https://old.example.com',
                }),
                unlockRequestOf({
                  id: 'a0000000-0000-4000-8000-000000000002',
                  userId: LEO_ID,
                  userName: 'Leo',
                  createdAt: minutesAgo(5),
                  requestComment: 'Minecraft server',
                  url: undefined,
                  domain: undefined,
                  ipAddress: '93.184.216.34',
                  appName: 'Minecraft',
                  appCategories: ['games'],
                }),
              ],
            },
          }
        : serverError('notFound'),
    );
    renderApp('/unlock-requests');

    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    const [leo, emma] = cards as [HTMLElement, HTMLElement];
    expect(within(leo).getByRole('heading', { name: 'Leo' })).toBeInTheDocument();
    expect(within(leo).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(leo).getByText('93.184.216.34')).toBeInTheDocument();
    expect(within(leo).getByText('“Minecraft server”')).toBeInTheDocument();
    expect(within(leo).getByRole('link', { name: 'Accept' })).toHaveAttribute(
      'href',
      `/children/${LEO_ID}/unlock-requests/a0000000-0000-4000-8000-000000000002/select-keychain`,
    );
    expect(within(leo).getByRole('link', { name: 'Deny' })).toHaveAttribute(
      'href',
      `/children/${LEO_ID}/unlock-requests/a0000000-0000-4000-8000-000000000002/deny`,
    );
    expect(within(emma).getByText('accepted')).toBeInTheDocument();
    expect(within(emma).queryByRole('link', { name: 'Accept' })).not.toBeInTheDocument();
    // the whole list fitted on one page
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });

  test("one child's page asks for that child's requests and shows the spec's empty state", async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetUnlockRequestsPage') return { body: { requests: [] } };
      if (op === 'GetUser') return { body: { id: EMMA_ID, name: 'Emma' } };
      return serverError('notFound');
    });
    renderApp(`/children/${EMMA_ID}/unlock-requests`);
    expect(await screen.findByText('No unlock requests for this child')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'GetUnlockRequestsPage')?.body).toEqual({
      childId: EMMA_ID,
    });
    expect(calls.some((call) => call.op === 'GetUnlockRequests')).toBe(false);
    expect(
      await screen.findByRole('heading', { name: "Emma's unlock requests" }),
    ).toBeInTheDocument();
  });
});

describe('Show older (issue 19: the list comes a page at a time)', () => {
  const decided = (n: number, minutes: number) =>
    unlockRequestOf({
      id: `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      status: n % 2 ? 'accepted' : 'rejected',
      url: `https://site${n}.example.com`,
      createdAt: minutesAgo(minutes),
    });
  const FIRST = [unlockRequestOf({ createdAt: minutesAgo(1) }), decided(1, 10), decided(2, 20)];
  const OLDER = [decided(3, 30), decided(4, 40)];
  const OLDEST = [decided(5, 50)];

  function pagedServer({ failOnce = false } = {}) {
    let failures = failOnce ? 1 : 0;
    return fakeServer((op, body) => {
      if (op !== 'GetUnlockRequestsPage') return serverError('notFound');
      const before = (body as { before?: string }).before;
      if (before === undefined) return { body: { requests: FIRST, nextBefore: 'cursor-1' } };
      if (before === 'cursor-1') {
        if (failures-- > 0) return serverError('serverError', {}, 500);
        return { body: { requests: OLDER, nextBefore: 'cursor-2' } };
      }
      if (before === 'cursor-2') return { body: { requests: OLDEST } };
      return serverError('badRequest');
    });
  }

  test('each click adds the next older page below; after the last page the control goes', async () => {
    const user = userEvent.setup();
    const calls = pagedServer();
    renderApp('/unlock-requests');

    expect(await screen.findAllByRole('article')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(screen.getByText('https://site4.example.com')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(6));
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();

    // pending first, then newest first, as one list
    const targets = screen
      .getAllByRole('article')
      .map((card) => within(card).getByText(/^https:\/\//).textContent);
    expect(targets).toEqual([
      'https://www.khanacademy.org/math',
      ...[1, 2, 3, 4, 5].map((n) => `https://site${n}.example.com`),
    ]);
    expect(
      calls.filter((call) => call.op === 'GetUnlockRequestsPage').map((call) => call.body),
    ).toEqual([{}, { before: 'cursor-1' }, { before: 'cursor-2' }]);
  });

  test('a page that fails to load says so and can be tried again; the list shown stays', async () => {
    const user = userEvent.setup();
    pagedServer({ failOnce: true });
    renderApp('/unlock-requests');

    expect(await screen.findAllByRole('article')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The older requests could not be loaded.',
    );
    expect(screen.getAllByRole('article')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show older' })).toBeInTheDocument();
  });

  test("one child's list pages through that child's requests", async () => {
    const user = userEvent.setup();
    const calls = fakeServer((op, body) => {
      if (op === 'GetUser') return { body: { id: EMMA_ID, name: 'Emma' } };
      if (op !== 'GetUnlockRequestsPage') return serverError('notFound');
      return (body as { before?: string }).before
        ? { body: { requests: OLDER } }
        : { body: { requests: FIRST, nextBefore: 'cursor-1' } };
    });
    renderApp(`/children/${EMMA_ID}/unlock-requests`);
    expect(await screen.findAllByRole('article')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(
      calls.filter((call) => call.op === 'GetUnlockRequestsPage').map((call) => call.body),
    ).toEqual([{ childId: EMMA_ID }, { childId: EMMA_ID, before: 'cursor-1' }]);
  });
});

function server(
  request: UnlockRequest,
  {
    keychains = [adminKeychainOf({ id: SCHOOL_ID, name: 'School' }, [EMMA_ID])],
    failing = '',
    familyDevices = undefined as FamilyDevice[] | undefined,
  } = {},
) {
  let current = request;
  return fakeServer((op, body) => {
    if (op === failing) return serverError('serverError', {}, 500);
    switch (op) {
      case 'GetUnlockRequest':
        return { body: current };
      case 'GetUserUnlockRequests':
        return { body: [current] };
      case 'GetUnlockRequestsPage':
        return { body: { requests: [current] } };
      case 'GetUser':
        return { body: { id: EMMA_ID, name: 'Emma' } };
      case 'GetAdminKeychains':
        return { body: { keychains, children: [{ id: EMMA_ID, name: 'Emma' }] } };
      case 'GetIdentifiedApps':
        return { body: [] };
      case 'GetFamilyDevices':
        return familyDevices ? { body: familyDevices } : serverError('notFound');
      case 'SaveKey':
        return { body: { success: true } };
      case 'UpdateUnlockRequest':
        current = { ...current, status: (body as { status: UnlockRequest['status'] }).status };
        return { body: { success: true } };
      default:
        return serverError('notFound');
    }
  });
}

describe('unlock request detail', () => {
  test('a pending request opens its review with the app details on demand', async () => {
    server(unlockRequestOf({ createdAt: minutesAgo(3), ipAddress: '1.2.3.4' }));
    const user = userEvent.setup();
    renderApp(BASE);
    await waitFor(() => expect(currentLocation()).toBe(`${BASE}/review`));
    expect(await screen.findByRole('heading', { name: 'Unlock request' })).toBeInTheDocument();
    expect(screen.getByText('“For my homework”')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://www.khanacademy.org/math' })).toHaveAttribute(
      'href',
      'https://www.khanacademy.org/math',
    );
    const details = screen.getByText('App details').closest('details') as HTMLElement;
    expect(details).not.toHaveAttribute('open');
    await user.click(screen.getByText('App details'));
    expect(details).toHaveAttribute('open');
    expect(within(details).getByText('browser')).toBeInTheDocument();
    expect(within(details).getByText('com.apple.Safari')).toBeInTheDocument();
    expect(within(details).getByText('1.2.3.4')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Accept' })).toHaveAttribute(
      'href',
      `${BASE}/select-keychain`,
    );
  });

  test('a decided request shows its final status, and its sub-routes lead back to it', async () => {
    server(unlockRequestOf({ status: 'rejected' }));
    renderApp(`${BASE}/select-keychain`);
    await waitFor(() => expect(currentLocation()).toBe(BASE));
    expect(await screen.findByText('This request was denied.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Accept' })).not.toBeInTheDocument();
  });

  test('another parent\'s or a missing request is "not found"', async () => {
    fakeServer(() => serverError('notFound', { entityName: 'UnlockRequest' }, 404));
    renderApp(BASE);
    expect(await screen.findByText('Unlock request not found.')).toBeInTheDocument();
  });
});

describe('accepting', () => {
  test('issue 33: for a child with only Keyward DNS devices, the wizard says what DNS can enforce', async () => {
    const dnsDevice = (kind: 'dns' | 'mac', n: number): FamilyDevice => ({
      kind,
      id: `d000000${n}-0000-4000-8000-000000000001`,
      childId: EMMA_ID,
      childName: 'Emma',
      name: 'Phone',
      model: 'Android phone or tablet (Keyward DNS)',
      path: `/computers/d000000${n}-0000-4000-8000-000000000002`,
      pendingRequests: 0,
    });
    for (const [devices, shown] of [
      [[dnsDevice('dns', 1)], true],
      [[dnsDevice('dns', 1), dnsDevice('mac', 2)], false],
    ] as const) {
      const calls = server(unlockRequestOf(), { familyDevices: [...devices] });
      const view = renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
      const wizard = await screen.findByRole('dialog', { name: 'Edit key' });
      if (shown) {
        expect(await within(wizard).findByRole('note')).toHaveTextContent(
          'This child’s devices are all filtered by Keyward DNS',
        );
      } else {
        // once the devices are read, no note
        await waitFor(() =>
          expect(calls.some((call) => call.op === 'GetFamilyDevices')).toBe(true),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(within(wizard).queryByRole('note')).not.toBeInTheDocument();
      }
      view.unmount();
    }
  });

  test('pick one of my keychains, the wizard is prefilled, submit saves the key and accepts', async () => {
    const calls = server(unlockRequestOf(), {
      keychains: [
        adminKeychainOf({ id: SCHOOL_ID, name: 'School', numKeys: 2 }, [EMMA_ID]),
        adminKeychainOf({
          id: 'c0000000-0000-4000-8000-000000000009',
          name: 'Somebody else',
          parentId: '99999999-9999-4999-8999-999999999999',
        }),
      ],
    });
    const user = userEvent.setup();
    renderApp(`${BASE}/select-keychain`);

    const school = await screen.findByRole('link', { name: /School/ });
    expect(screen.queryByRole('link', { name: /Somebody else/ })).not.toBeInTheDocument();
    await user.click(school);
    expect(currentLocation()).toBe(`${BASE}/edit-key/${SCHOOL_ID}`);

    const wizard = await screen.findByRole('dialog', { name: 'Edit key' });
    // every step shows at once (edit mode), prefilled from the request
    expect(within(wizard).getByText('www.khanacademy.org')).toBeInTheDocument();
    expect(within(wizard).getByText('Web browsers')).toBeInTheDocument();
    await user.click(within(wizard).getByRole('button', { name: 'Save key and accept' }));

    await waitFor(() => expect(currentLocation()).toBe(`/children/${EMMA_ID}/unlock-requests`));
    const saveKey = calls.find((call) => call.op === 'SaveKey');
    expect(saveKey?.body).toMatchObject({
      isNew: true,
      keychainId: SCHOOL_ID,
      key: { type: 'domain', domain: 'www.khanacademy.org', scope: { type: 'webBrowsers' } },
    });
    const update = calls.find((call) => call.op === 'UpdateUnlockRequest');
    // issue 32: the accept names the keychain, so a child without it is given it
    expect(update?.body).toEqual({ id: REQUEST_ID, status: 'accepted', keychainId: SCHOOL_ID });
    expect(calls.indexOf(saveKey as never)).toBeLessThan(calls.indexOf(update as never));
    expect(toast.success).toHaveBeenCalledWith('Unlock request accepted!');
  });

  test('an app request becomes an app key scoped to the address', async () => {
    const calls = server(
      unlockRequestOf({
        url: undefined,
        domain: 'zoom.us',
        appName: 'Zoom',
        appSlug: undefined,
        appBundleId: 'us.zoom.xos',
        appCategories: ['video'],
      }),
    );
    const user = userEvent.setup();
    renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
    const wizard = await screen.findByRole('dialog', { name: 'Edit key' });
    expect(within(wizard).getByText('One address')).toBeInTheDocument();
    await user.click(within(wizard).getByRole('button', { name: 'Save key and accept' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'SaveKey')?.body).toMatchObject({
        key: {
          type: 'domain',
          domain: 'zoom.us',
          scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
        },
      }),
    );
  });

  test('issue 32: a local host says why "Save key and accept" is off, next to it', async () => {
    server(unlockRequestOf({ url: 'http://intranet/', domain: 'intranet' }));
    renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
    const wizard = await screen.findByRole('dialog', { name: 'Edit key' });
    const save = within(wizard).getByRole('button', { name: 'Save key and accept' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/'intranet' is a name on a local network/);
    expect(save).toHaveAccessibleDescription(/IP address/);
  });

  test('Cancel in the key wizard goes back to choosing a keychain, nothing is saved', async () => {
    const calls = server(unlockRequestOf());
    const user = userEvent.setup();
    renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
    const wizard = await screen.findByRole('dialog', { name: 'Edit key' });
    await user.click(within(wizard).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(currentLocation()).toBe(`${BASE}/select-keychain`));
    expect(screen.queryByRole('dialog', { name: 'Edit key' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.op === 'SaveKey' || call.op === 'UpdateUnlockRequest')).toBe(
      false,
    );
  });

  test("with no keychain of my own, the spec's message instead of a list", async () => {
    server(unlockRequestOf(), { keychains: [] });
    renderApp(`${BASE}/select-keychain`);
    expect(
      await screen.findByText(/Emma needs at least one keychain before you can accept/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a keychain' })).toHaveAttribute(
      'href',
      '/keychains/new',
    );
  });

  test('a failed accept shows the error screen; Try again does not save the key twice', async () => {
    let isDown = true;
    const calls = fakeServer((op) => {
      switch (op) {
        case 'GetUnlockRequest':
          return { body: unlockRequestOf() };
        case 'GetAdminKeychains':
          return { body: { keychains: [adminKeychainOf({ id: SCHOOL_ID })], children: [] } };
        case 'SaveKey':
          return { body: { success: true } };
        case 'UpdateUnlockRequest':
          return isDown ? serverError('serverError', {}, 500) : { body: { success: true } };
        default:
          return { body: [] };
      }
    });
    const user = userEvent.setup();
    renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Save key and accept' }));
    expect(
      await screen.findByRole('heading', { name: 'Error accepting unlock request' }),
    ).toBeInTheDocument();

    isDown = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(currentLocation()).toBe(`/children/${EMMA_ID}/unlock-requests`));
    expect(calls.filter((call) => call.op === 'SaveKey')).toHaveLength(1);
    expect(calls.filter((call) => call.op === 'UpdateUnlockRequest')).toHaveLength(2);
  });
});

describe('a request decided first by another parent (issue 19)', () => {
  function decidedMeanwhile(status: 'accepted' | 'rejected') {
    let isDecided = false;
    const words = status === 'accepted' ? 'accepted' : 'denied';
    const calls = fakeServer((op) => {
      switch (op) {
        case 'GetUnlockRequest':
          return { body: unlockRequestOf(isDecided ? { status } : {}) };
        case 'GetAdminKeychains':
          return { body: { keychains: [adminKeychainOf({ id: SCHOOL_ID })], children: [] } };
        case 'SaveKey':
          return { body: { success: true } };
        case 'UpdateUnlockRequest':
          isDecided = true;
          return serverError('badRequest', {
            id: 'e5b1c7a4',
            dashboardTag: 'requestAlreadyDecided',
            userMessage: `This unlock request was already ${words}.`,
          });
        default:
          return { body: [] };
      }
    });
    return calls;
  }

  test('an accept: the words, the request as it was decided, and no Try again', async () => {
    const calls = decidedMeanwhile('rejected');
    const user = userEvent.setup();
    renderApp(`${BASE}/edit-key/${SCHOOL_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Save key and accept' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This unlock request was already denied.');
    expect(alert).toHaveTextContent('The key you made was saved all the same');
    expect(await screen.findByText('This request was denied.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Error accepting unlock request' })).toBeNull();
    expect(calls.filter((call) => call.op === 'UpdateUnlockRequest')).toHaveLength(1);
  });

  test('a deny: the words and the request as it was decided', async () => {
    decidedMeanwhile('accepted');
    const user = userEvent.setup();
    renderApp(`${BASE}/deny`);
    await user.click(await screen.findByRole('button', { name: 'Deny request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This unlock request was already accepted.',
    );
    expect(await screen.findByText('This request was accepted.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});

describe('denying', () => {
  test('sends the optional comment the child sees', async () => {
    const calls = server(unlockRequestOf());
    const user = userEvent.setup();
    renderApp(`${BASE}/deny`);
    await user.type(await screen.findByLabelText('Comment for Emma'), 'Not on a school night');
    await user.click(screen.getByRole('button', { name: 'Deny request' }));
    await waitFor(() => expect(currentLocation()).toBe(`/children/${EMMA_ID}/unlock-requests`));
    expect(calls.find((call) => call.op === 'UpdateUnlockRequest')?.body).toEqual({
      id: REQUEST_ID,
      status: 'rejected',
      responseComment: 'Not on a school night',
    });
  });

  test('a failed deny shows the error screen with Try again', async () => {
    server(unlockRequestOf(), { failing: 'UpdateUnlockRequest' });
    const user = userEvent.setup();
    renderApp(`${BASE}/deny`);
    await user.click(await screen.findByRole('button', { name: 'Deny request' }));
    expect(
      await screen.findByRole('heading', { name: 'Error denying unlock request' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe("links to a child's requests", () => {
  test('from the children cards and the child page', async () => {
    const emma = childOf({ devices: [computerOf()] });
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [emma] };
      if (op === 'GetUser') return { body: emma };
      return { body: { keychains: [], children: [], own: [], public: [] } };
    });
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    expect(within(card).getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}/unlock-requests`,
    );

    renderApp(`/children/${EMMA_ID}`);
    expect(await screen.findByRole('link', { name: 'Unlock requests' })).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}/unlock-requests`,
    );
  });
});
