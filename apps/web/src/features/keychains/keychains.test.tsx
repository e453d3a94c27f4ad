import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  currentLocation,
  fakeServer,
  loggedIn,
  renderApp,
  serverError,
} from '../../../test/helpers';
import {
  adminKeychainOf,
  EMMA_ID,
  GAMES_ID,
  keyOf,
  LEO_ID,
  SCHOOL_ID,
  summaryOf,
} from './test-fixtures';
import { childOf, keychainOf } from '../children/test-fixtures';
import type { RuleSchedule } from '@keyward/contract/shared';

const AFTER_SCHOOL: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: false,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: false,
  },
  window: { start: { hour: 15, minute: 0 }, end: { hour: 19, minute: 0 } },
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const children = [
  { id: EMMA_ID, name: 'Emma' },
  { id: LEO_ID, name: 'Leo' },
];

describe('/keychains', () => {
  test('shows cards with key counts, assigned children as chips, and warns about unused ones', async () => {
    fakeServer((op) =>
      op === 'GetAdminKeychains'
        ? {
            body: {
              keychains: [
                adminKeychainOf({ id: SCHOOL_ID, name: 'School', numKeys: 3 }, [EMMA_ID, LEO_ID]),
                adminKeychainOf({ id: GAMES_ID, name: 'Games', numKeys: 1 }, []),
              ],
              children,
            },
          }
        : serverError('notFound'),
    );
    renderApp('/keychains');

    const school = await screen.findByRole('article', { name: 'School' });
    expect(within(school).getByText('3 keys')).toBeInTheDocument();
    expect(within(school).getByText('Emma')).toBeInTheDocument();
    expect(within(school).getByText('Leo')).toBeInTheDocument();
    expect(within(school).queryByText('Not being used')).not.toBeInTheDocument();
    expect(within(school).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/keychains/${SCHOOL_ID}`,
    );

    const games = screen.getByRole('article', { name: 'Games' });
    expect(within(games).getByText('1 key')).toBeInTheDocument();
    expect(within(games).getByText('Not being used')).toBeInTheDocument();
    expect(within(games).getByText("This keychain isn't doing anything")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create keychain' })).toHaveAttribute(
      'href',
      '/keychains/new',
    );
  });

  test('the children menu assigns a child with ToggleChildKeychain and refreshes the list', async () => {
    let isAssigned = false;
    const calls = fakeServer((op) => {
      if (op === 'GetAdminKeychains') {
        return {
          body: {
            keychains: [adminKeychainOf({ name: 'Games' }, isAssigned ? [LEO_ID] : [])],
            children,
          },
        };
      }
      if (op === 'ToggleChildKeychain') {
        isAssigned = !isAssigned;
        return { body: { success: true } };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/keychains');
    await user.click(await screen.findByRole('button', { name: 'Assign Games to children' }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitemcheckbox', { name: 'Leo' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Leo' }));

    await waitFor(() =>
      expect(
        within(screen.getByRole('menu')).getByRole('menuitemcheckbox', { name: 'Leo' }),
      ).toHaveAttribute('aria-checked', 'true'),
    );
    expect(calls.find((call) => call.op === 'ToggleChildKeychain')?.body).toEqual({
      keychainId: SCHOOL_ID,
      childId: LEO_ID,
    });
    expect(calls.filter((call) => call.op === 'GetAdminKeychains')).toHaveLength(2);
    const games = screen.getByRole('article', { name: 'Games' });
    expect(within(games).queryByText('Not being used')).not.toBeInTheDocument();
  });

  test('a scheduled assignment shows its schedule and is only removed after confirmation', async () => {
    let assigned = [EMMA_ID, LEO_ID];
    const calls = fakeServer((op, body) => {
      switch (op) {
        case 'GetAdminKeychains':
          return {
            body: {
              keychains: [adminKeychainOf({ id: SCHOOL_ID, name: 'School' }, assigned)],
              children,
            },
          };
        case 'GetUsers':
          return {
            body: [
              childOf({
                id: EMMA_ID,
                name: 'Emma',
                keychains: assigned.includes(EMMA_ID)
                  ? [{ ...keychainOf(SCHOOL_ID, 0), schedule: AFTER_SCHOOL }]
                  : [],
              }),
              childOf({
                id: LEO_ID,
                name: 'Leo',
                keychains: assigned.includes(LEO_ID) ? [keychainOf(SCHOOL_ID, 0)] : [],
              }),
            ],
          };
        case 'ToggleChildKeychain': {
          const { childId } = body as { childId: string };
          assigned = assigned.includes(childId)
            ? assigned.filter((id) => id !== childId)
            : [...assigned, childId];
          return { body: { success: true } };
        }
        default:
          return serverError('notFound');
      }
    });
    const user = userEvent.setup();
    renderApp('/keychains');

    const card = await screen.findByRole('article', { name: 'School' });
    // the chip says Emma's assignment is scheduled; Leo's is always
    expect(
      await within(card).findByText('Active 15:00–19:00, weekdays', { exact: false }),
    ).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Assign School to children' }));
    const emma = within(screen.getByRole('menu')).getByRole('menuitemcheckbox', { name: 'Emma' });
    expect(emma).toHaveAccessibleDescription('Active 15:00–19:00, weekdays');
    await user.click(emma);

    let dialog = screen.getByRole('dialog', { name: 'Remove School from Emma?' });
    expect(dialog).toHaveTextContent(
      'Emma has School on a schedule (Active 15:00–19:00, weekdays). Removing it deletes the schedule.',
    );
    expect(dialog).toHaveTextContent('Turning Emma on again here gives the keychain always.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.op === 'ToggleChildKeychain')).toBe(false);

    // the menu stays open behind the dialog, as it does for several toggles
    await user.click(
      within(screen.getByRole('menu')).getByRole('menuitemcheckbox', { name: 'Emma' }),
    );
    dialog = screen.getByRole('dialog', { name: 'Remove School from Emma?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.op === 'ToggleChildKeychain')).toHaveLength(1),
    );
    expect(calls.find((call) => call.op === 'ToggleChildKeychain')?.body).toEqual({
      keychainId: SCHOOL_ID,
      childId: EMMA_ID,
    });
    const menu = screen.getByRole('menu');
    await waitFor(() =>
      expect(within(menu).getByRole('menuitemcheckbox', { name: 'Emma' })).toHaveAttribute(
        'aria-checked',
        'false',
      ),
    );
    expect(within(card).queryByText(/15:00–19:00/)).not.toBeInTheDocument();
  }, 20_000);

  test('an always-active assignment is removed in one click; turning on says it gives always', async () => {
    let assigned = [LEO_ID];
    const calls = fakeServer((op) => {
      switch (op) {
        case 'GetAdminKeychains':
          return {
            body: { keychains: [adminKeychainOf({ name: 'Games' }, assigned)], children },
          };
        case 'GetUsers':
          return {
            body: [
              childOf({ id: EMMA_ID, name: 'Emma' }),
              childOf({
                id: LEO_ID,
                name: 'Leo',
                keychains: assigned.length ? [keychainOf(SCHOOL_ID, 0)] : [],
              }),
            ],
          };
        case 'ToggleChildKeychain':
          assigned = [];
          return { body: { success: true } };
        default:
          return serverError('notFound');
      }
    });
    const user = userEvent.setup();
    renderApp('/keychains');
    await user.click(await screen.findByRole('button', { name: 'Assign Games to children' }));
    const menu = screen.getByRole('menu');
    expect(
      within(menu).getByRole('menuitemcheckbox', { name: 'Emma' }),
    ).toHaveAccessibleDescription('Off · turning on gives it always');
    const leo = within(menu).getByRole('menuitemcheckbox', { name: 'Leo' });
    await waitFor(() => expect(leo).toHaveAccessibleDescription('Always active'));
    await user.click(leo);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((call) => call.op === 'ToggleChildKeychain')).toHaveLength(1),
    );
  });

  test('deletes a keychain after confirmation', async () => {
    let isDeleted = false;
    const calls = fakeServer((op) => {
      if (op === 'GetAdminKeychains') {
        return {
          body: { keychains: isDeleted ? [] : [adminKeychainOf({ name: 'School' })], children },
        };
      }
      if (op === 'DeleteEntity_v2') {
        isDeleted = true;
        return { body: { success: true } };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/keychains');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete keychain?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'No keychains' })).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
      type: 'keychain',
      id: SCHOOL_ID,
    });
  });

  test('with no keychains shows the empty state', async () => {
    fakeServer((op) => (op === 'GetUsers' ? { body: [] } : { body: { keychains: [], children } }));
    renderApp('/keychains');
    expect(await screen.findByRole('heading', { name: 'No keychains' })).toBeInTheDocument();
  });

  test('a failed list says something went wrong', async () => {
    fakeServer(() => serverError('serverError', {}, 500));
    renderApp('/keychains');
    expect(await screen.findByText('Hmm, something went wrong')).toBeInTheDocument();
    expect(screen.getByText('Try refreshing the page and trying again')).toBeInTheDocument();
  });
});

describe('keychain editor and key wizard', () => {
  test('creates a keychain, then adds a website key through the wizard', async () => {
    const keys: ReturnType<typeof keyOf>[] = [];
    let keychainId = '';
    const calls = fakeServer((op, body) => {
      const input = body as Record<string, unknown>;
      switch (op) {
        case 'SaveKeychain':
          keychainId = input.id as string;
          return { body: { success: true } };
        case 'GetAdminKeychain':
          return {
            body: {
              summary: summaryOf({ id: keychainId, name: 'Homework', numKeys: keys.length }),
              keys,
            },
          };
        case 'SaveKey':
          keys.push(
            keyOf({
              id: input.id as string,
              keychainId,
              key: input.key as never,
              comment: 'Maths',
            }),
          );
          return { body: { success: true } };
        default:
          return serverError('notFound');
      }
    });
    const user = userEvent.setup();
    renderApp('/keychains/new');

    const create = await screen.findByRole('button', { name: 'Create keychain' });
    expect(create).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add new key' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), ' Homework ');
    await user.type(screen.getByLabelText('Description'), 'School sites');
    await user.click(create);

    await waitFor(() => expect(currentLocation()).toBe(`/keychains/${keychainId}`));
    expect(calls.find((call) => call.op === 'SaveKeychain')?.body).toEqual({
      isNew: true,
      id: keychainId,
      name: 'Homework',
      description: 'School sites',
    });
    expect(keychainId).toMatch(UUID_V4);
    expect(await screen.findByRole('heading', { name: 'No keys' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save keychain' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Add new key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create a new key' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    expect(within(dialog).queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Website/ })).toBeChecked();
    await user.click(next);

    const address = within(dialog).getByLabelText('Website address');
    expect(next).toBeDisabled();
    await user.type(address, 'nope');
    expect(within(dialog).getByText('invalid address')).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.clear(address);
    await user.type(address, '93.184.216.34');
    expect(
      within(dialog).getByText(
        'That looks like an IP address. Turn on Advanced and pick the IP address type.',
      ),
    ).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.clear(address);
    await user.type(address, 'https://www.KhanAcademy.org/math');
    expect(within(dialog).queryByText('invalid address')).not.toBeInTheDocument();
    // the pasted URL keeps its host; a leading www. is left out, so no preview doubles it
    expect(within(dialog).getByText('also unlocks www.khanacademy.org')).toBeInTheDocument();
    expect(within(dialog).queryByText(/www\.www\./)).not.toBeInTheDocument();
    expect(within(dialog).getByText(/'www\.' is left out/)).toBeInTheDocument();
    await user.click(next);

    expect(within(dialog).getByRole('radio', { name: /Web browsers/ })).toBeChecked();
    expect(within(dialog).queryByRole('radio', { name: /One app/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByLabelText('Website address')).toBeInTheDocument();
    await user.click(next);
    await user.click(next);
    // expiration: off by default
    expect(within(dialog).getByRole('switch', { name: 'Expires' })).not.toBeChecked();
    await user.click(next);
    await user.type(within(dialog).getByLabelText('Comment'), 'Maths');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Create a new key' })).not.toBeInTheDocument(),
    );
    const saveKey = calls.find((call) => call.op === 'SaveKey')?.body as Record<string, unknown>;
    expect(saveKey.id).toMatch(UUID_V4);
    expect(saveKey).toEqual({
      isNew: true,
      id: saveKey.id,
      keychainId,
      key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
      comment: 'Maths',
    });
    // the keychain refreshes with the new key in the table
    const table = await screen.findByRole('table');
    expect(
      within(table).getByText('khanacademy.org and its subdomains in web browsers'),
    ).toBeInTheDocument();
    expect(within(table).getByText('Maths')).toBeInTheDocument();
  }, 20_000);

  test('shows the server error inside the key dialog', async () => {
    fakeServer((op) => {
      if (op === 'GetAdminKeychain') return { body: { summary: summaryOf(), keys: [keyOf()] } };
      if (op === 'SaveKey') {
        return serverError('badRequest', { userMessage: "'khanacademy.org' is not allowed" });
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/keychains/${SCHOOL_ID}`);
    await user.click(await screen.findByRole('button', { name: /Edit key khanacademy\.org/ }));
    const dialog = screen.getByRole('dialog', { name: 'Edit key' });
    // edit mode: every step shown, none open
    for (const step of ['Key type', 'Website address', 'Affected apps', 'Expiration', 'Comment']) {
      expect(
        within(dialog).getByRole('button', { name: new RegExp(`^${step}`) }),
      ).toBeInTheDocument();
    }
    expect(within(dialog).queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    const commentStep = within(dialog).getByRole('button', { name: /^Comment/ });
    await user.click(commentStep);
    expect(commentStep).toHaveAttribute('aria-expanded', 'true');
    await user.type(within(dialog).getByLabelText('Comment'), 'For school');
    await user.click(commentStep);
    expect(commentStep).toHaveAttribute('aria-expanded', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'Save key' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "'khanacademy.org' is not allowed",
    );
  });

  test('app keys are named as in the catalogue; Save key waits for a change', async () => {
    const zoomKey = keyOf({
      key: { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
    });
    const calls = fakeServer((op) => {
      if (op === 'GetAdminKeychain') return { body: { summary: summaryOf(), keys: [zoomKey] } };
      if (op === 'GetIdentifiedApps') {
        return {
          body: [
            {
              id: '00000000-0000-4000-8000-000000000027',
              name: 'Zoom',
              slug: 'zoom',
              launchable: true,
              bundleIds: ['us.zoom.xos'],
            },
          ],
        };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/keychains/${SCHOOL_ID}`);
    const table = await screen.findByRole('table');
    expect(
      await within(table).findByText('all internet access for the app Zoom'),
    ).toBeInTheDocument();
    expect(within(table).queryByText(/the app zoom/)).not.toBeInTheDocument();

    await user.click(
      screen.getByRole('button', { name: 'Edit key all internet access for the app Zoom' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit key' });
    expect(within(dialog).getByRole('button', { name: /^Choose app/ })).toHaveTextContent('Zoom');
    const save = within(dialog).getByRole('button', { name: 'Save key' });
    expect(save).toBeDisabled();
    const commentStep = within(dialog).getByRole('button', { name: /^Comment/ });
    await user.click(commentStep);
    await user.type(within(dialog).getByLabelText('Comment'), 'Video calls');
    expect(save).toBeEnabled();
    await user.clear(within(dialog).getByLabelText('Comment'));
    expect(save).toBeDisabled();
    expect(calls.some((call) => call.op === 'SaveKey')).toBe(false);

    // The app chooser: an instruction as placeholder, and a hint that search looks at every app.
    await user.click(within(dialog).getByRole('button', { name: /^Choose app/ }));
    const search = within(dialog).getByLabelText('Search apps');
    expect(search).toHaveAttribute('placeholder', 'Type an app name to search');
    expect(search).toHaveValue('');
    expect(search).toHaveAccessibleDescription('Search by the app name.');
    await user.type(search, 'zo');
    expect(search).toHaveAccessibleDescription('Search looks through every app we know.');
    expect(within(dialog).getByRole('radio', { name: 'Zoom' })).toBeChecked();
  });

  test('a keychain that does not exist shows not found', async () => {
    fakeServer(() => serverError('notFound', { entityName: 'Keychain' }, 404));
    renderApp(`/keychains/${SCHOOL_ID}`);
    expect(await screen.findByText('Keychain not found.')).toBeInTheDocument();
  });
});

describe('child page Keychains section', () => {
  test('adds a keychain on a schedule from the drawer and saves it with the child', async () => {
    const computer = {
      id: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
      deviceId: 'bb22cc33-dd44-4e55-8f66-007788990011',
      status: { case: 'filterOn' },
      modelFamily: 'macBookAir',
      modelTitle: 'MacBook Air (M1, 2020)',
      modelIdentifier: 'MacBookAir10,1',
    };
    const emma = {
      id: EMMA_ID,
      name: 'Emma',
      keyloggingEnabled: false,
      screenshotsEnabled: false,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: false,
      keychains: [{ ...summaryOf({ name: 'School', numKeys: 2 }) }],
      devices: [computer],
      blockedApps: [],
      createdAt: '2025-01-02T03:04:05.000Z',
    };
    const calls = fakeServer((op) => {
      if (op === 'GetUser') return { body: emma };
      if (op === 'GetSelectableKeychains') {
        return {
          body: {
            own: [
              summaryOf({ name: 'School' }),
              summaryOf({ id: GAMES_ID, name: 'Games', numKeys: 1 }),
            ],
            public: [],
          },
        };
      }
      if (op === 'GetAdminKeychain')
        return { body: { summary: summaryOf({ id: GAMES_ID }), keys: [] } };
      if (op === 'SaveUser') return { body: { success: true } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);

    const school = await screen.findByRole('listitem', { name: 'School' });
    expect(within(school).getByText('2 keys · Always active')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save child' });
    expect(save).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    await user.click(await within(drawer).findByRole('button', { name: /Games/ }));
    await user.click(within(drawer).getByRole('switch', { name: 'Schedule' }));
    await user.click(within(drawer).getByRole('button', { name: 'Add keychain' }));

    const games = screen.getByRole('listitem', { name: 'Games' });
    expect(within(games).getByText('1 key · Active 07:00–17:00, every day')).toBeInTheDocument();
    fireEvent.input(within(games).getByLabelText('End time'), { target: { value: '06:00' } });
    expect(within(games).getByRole('alert')).toHaveTextContent('End time must be after start time');
    expect(save).toBeDisabled();
    fireEvent.input(within(games).getByLabelText('End time'), { target: { value: '15:30' } });
    expect(save).toBeEnabled();
    await user.click(save);

    await waitFor(() => expect(calls.some((call) => call.op === 'SaveUser')).toBe(true));
    const body = calls.find((call) => call.op === 'SaveUser')?.body as Record<string, unknown>;
    expect(body.keychains).toEqual([
      { id: SCHOOL_ID },
      {
        id: GAMES_ID,
        schedule: {
          mode: 'active',
          days: {
            sunday: true,
            monday: true,
            tuesday: true,
            wednesday: true,
            thursday: true,
            friday: true,
            saturday: true,
          },
          window: { start: { hour: 7, minute: 0 }, end: { hour: 15, minute: 30 } },
        },
      },
    ]);
  }, 20_000);
});
