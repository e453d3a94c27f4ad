import type { User } from '@keyward/contract/shared';
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
import { childOf, computerOf, EMMA_ID, keychainOf, LEO_ID } from './test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('/children', () => {
  test('shows a card per child with counts, monitoring and computers with status', async () => {
    const resuming = '2025-03-04T15:15:00.000Z';
    const emma = childOf({
      keychains: [
        keychainOf('0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706', 3),
        keychainOf('7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', 1),
      ],
      screenshotsEnabled: true,
      devices: [
        computerOf({ customName: 'Study Mac', status: { case: 'filterSuspended', resuming } }),
      ],
    });
    const leo = childOf({ id: LEO_ID, name: 'Leo', keyloggingEnabled: true });
    fakeServer((op) => (op === 'GetUsers' ? { body: [emma, leo] } : serverError('notFound')));
    renderApp('/children');

    const emmaCard = await screen.findByRole('article', { name: 'Emma' });
    const localTime = new Date(resuming).toLocaleTimeString(undefined, {
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(within(emmaCard).getByText('2 keychains · 4 keys')).toBeInTheDocument();
    expect(within(emmaCard).getByText('Screenshots on')).toBeInTheDocument();
    expect(within(emmaCard).getByText('Keystroke monitoring off')).toBeInTheDocument();
    expect(within(emmaCard).getByText('Study Mac')).toBeInTheDocument();
    // the child's status and its one computer's status
    expect(within(emmaCard).getAllByText(`Filter suspended until ${localTime}`)).toHaveLength(2);
    expect(within(emmaCard).queryByText('Setup incomplete')).not.toBeInTheDocument();
    expect(within(emmaCard).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}`,
    );

    const leoCard = screen.getByRole('article', { name: 'Leo' });
    expect(within(leoCard).getByText('0 keychains · 0 keys')).toBeInTheDocument();
    expect(within(leoCard).getByText('Keystroke monitoring on')).toBeInTheDocument();
    expect(within(leoCard).getByText('Setup incomplete')).toBeInTheDocument();
    expect(within(leoCard).getByRole('button', { name: 'Finish setup' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add child' })).toHaveAttribute(
      'href',
      '/children/new',
    );
  });

  test('with no children shows the empty state', async () => {
    fakeServer(() => ({ body: [] }));
    const user = userEvent.setup();
    renderApp('/children');
    expect(await screen.findByRole('heading', { name: 'No children' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Add a child' }));
    await waitFor(() => expect(currentLocation()).toBe('/children/new'));
    expect(await screen.findByLabelText('Name')).toBeInTheDocument();
  });

  test('shows the error message when the children cannot be loaded', async () => {
    fakeServer(() => serverError('serverError', { userMessage: 'Database on fire' }, 500));
    renderApp('/children');
    expect(await screen.findByText('Database on fire')).toBeInTheDocument();
  });
});

describe('/children/new', () => {
  test('saves the child with a client id, isNew and the defaults, then opens it', async () => {
    const calls = fakeServer((op, body) => {
      if (op === 'SaveUser') return { body: { success: true } };
      if (op === 'GetUser') return { body: childOf({ id: body as string, name: 'Leo' }) };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/children/new');
    const save = await screen.findByRole('button', { name: 'Save child' });
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText('Name'), '   ');
    expect(save).toBeDisabled();
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), ' Leo ');
    await user.click(save);

    await waitFor(() => expect(calls.some((call) => call.op === 'SaveUser')).toBe(true));
    const body = calls.find((call) => call.op === 'SaveUser')?.body as Record<string, unknown>;
    expect(body.id).toMatch(UUID_V4);
    expect(body).toEqual({
      id: body.id,
      isNew: true,
      name: 'Leo',
      keyloggingEnabled: false,
      screenshotsEnabled: false,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: false,
      keychains: [],
      blockedApps: [],
    });
    await waitFor(() => expect(currentLocation()).toBe(`/children/${body.id}`));
    // now an existing child without computers: the add-computer prompt
    expect(await screen.findByRole('heading', { name: 'Leo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get connection code' })).toBeInTheDocument();
  });

  test('a double click on Save child sends one save with one id (issue 20)', async () => {
    const calls = fakeServer((op, body) => {
      if (op === 'SaveUser') return { body: { success: true } };
      if (op === 'GetUser') return { body: childOf({ id: body as string, name: 'Leo' }) };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/children/new');
    await user.type(await screen.findByLabelText('Name'), 'Leo');
    await user.dblClick(screen.getByRole('button', { name: 'Save child' }));
    expect(await screen.findByRole('heading', { name: 'Leo' })).toBeInTheDocument();
    expect(calls.filter((call) => call.op === 'SaveUser')).toHaveLength(1);
  });

  test('a name over the limit is kept whole and the limit is said', async () => {
    const calls = fakeServer(() => serverError('notFound'));
    const user = userEvent.setup();
    renderApp('/children/new');
    const field = await screen.findByLabelText('Name');
    await user.click(field);
    await user.paste('E'.repeat(258));
    expect(field).toHaveValue('E'.repeat(258));
    expect(screen.getByText("A child's name can be at most 100 characters.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save child' })).toBeDisabled();
    expect(calls.some((call) => call.op === 'SaveUser')).toBe(false);
  });

  test('Cancel goes back to the list', async () => {
    fakeServer(() => ({ body: [] }));
    const user = userEvent.setup();
    renderApp('/children/new');
    await user.click(await screen.findByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(currentLocation()).toBe('/children'));
  });
});

describe('connection code dialog', () => {
  test('a Keyward DNS kind names the device, creates it and shows its own steps', async () => {
    const emma = childOf();
    const id = '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b';
    const calls = fakeServer((op, body) => {
      if (op === 'GetUsers') return { body: [emma] };
      if (op === 'GetUser') return { body: emma };
      if (op === 'CreatePendingAppConnection') return { body: { code: 123456 } };
      if (op === 'CreateDnsDevice') {
        return {
          body: {
            id,
            dohUrl: `https://keyward.example/dns-query/${id}`,
            dotHostname: `${id}.dns.keyward.example`,
            ...((body as { kind: string }).kind === 'ios'
              ? { appleProfileUrl: `https://keyward.example/dns-profile/${id}.mobileconfig` }
              : {}),
          },
        };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    await user.click(within(card).getByRole('button', { name: 'Finish setup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    await within(dialog).findByText('123456');

    await user.click(within(dialog).getByRole('radio', { name: 'Android phone or tablet' }));
    // no code for DNS: a name, then the device
    expect(within(dialog).queryByText('123456')).not.toBeInTheDocument();
    const name = within(dialog).getByLabelText('Device name');
    expect(name).toHaveValue("Emma's Android phone or tablet");
    // the essentials keychain is offered, checked, with why a phone needs it
    const essentials = within(dialog).getByRole('checkbox', {
      name: /Also give Emma the Android essentials keychain/,
    });
    expect(essentials).toBeChecked();
    expect(dialog).toHaveTextContent('Without it, Android shows “no internet”');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Create the device' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Give the device a name, so you know it in the list.',
    );
    expect(calls.some((call) => call.op === 'CreateDnsDevice')).toBe(false);
    await user.type(name, 'Emma’s tablet');
    await user.click(within(dialog).getByRole('button', { name: 'Create the device' }));
    expect(await within(dialog).findByText(`${id}.dns.keyward.example`)).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'CreateDnsDevice')?.body).toEqual({
      childId: EMMA_ID,
      kind: 'android',
      name: 'Emma’s tablet',
      // offered, and explained, before the device is created
      withEssentials: true,
    });
    expect(dialog).toHaveTextContent('Network & internet → Private DNS');
    expect(
      within(dialog).getByRole('img', { name: 'QR code of the Private DNS hostname' }),
    ).toBeInTheDocument();

    // an iPhone without the app gets its configuration profile
    await user.click(within(dialog).getByRole('radio', { name: 'iPhone or iPad, no app' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create the device' }));
    expect(
      await within(dialog).findByRole('link', { name: 'Download the configuration profile' }),
    ).toHaveAttribute('href', `https://keyward.example/dns-profile/${id}.mobileconfig`);
    expect(dialog).toHaveTextContent('can remove the profile');
  });

  test('an Apple profile with a removal password: its link opens it for an hour, and it says so', async () => {
    const emma = childOf();
    const id = '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6c';
    const signed = `https://keyward.example/dns-profile/${id}.mobileconfig?expires=1&signature=ab`;
    const calls = fakeServer((op) => {
      if (op === 'GetUsers') return { body: [emma] };
      if (op === 'GetUser') return { body: emma };
      if (op === 'CreatePendingAppConnection') return { body: { code: 123456 } };
      if (op === 'CreateDnsDevice') {
        return {
          body: {
            id,
            dohUrl: `https://keyward.example/dns-query/${id}`,
            dotHostname: `${id}.dns.keyward.example`,
            appleProfileUrl: signed,
          },
        };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    await user.click(within(card).getByRole('button', { name: 'Finish setup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    await user.click(within(dialog).getByRole('radio', { name: 'iPhone or iPad, no app' }));
    await user.type(within(dialog).getByLabelText(/Removal password/), 'open sesame');
    await user.click(within(dialog).getByRole('button', { name: 'Create the device' }));
    expect(
      await within(dialog).findByRole('link', { name: 'Download the configuration profile' }),
    ).toHaveAttribute('href', signed);
    expect(calls.find((call) => call.op === 'CreateDnsDevice')?.body).toMatchObject({
      kind: 'ios',
      removalPassword: 'open sesame',
    });
    expect(dialog).toHaveTextContent('This link opens the profile for an hour');
    expect(dialog).not.toHaveTextContent('can remove the profile');
  });

  test('shows the code, polls every 2 s and shows the computer once it connects', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let isConnected = false;
    const emma = childOf();
    const connected = childOf({ devices: [computerOf({ modelTitle: 'Mac mini (M2, 2023)' })] });
    const calls = fakeServer((op, body) => {
      if (op === 'GetUsers') return { body: [isConnected ? connected : emma] };
      if (op === 'GetUser') return { body: isConnected ? connected : emma };
      if (op === 'CreatePendingAppConnection') {
        expect(body).toEqual({ userId: EMMA_ID });
        return { body: { code: 123456 } };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    await user.click(within(card).getByRole('button', { name: 'Finish setup' }));

    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    expect(await within(dialog).findByText('123456')).toBeInTheDocument();
    // issue 32: what a Mac can really install (no Keyward Mac app), each with its limits
    expect(within(dialog).getByText(/Keyward has no Mac app of its own/)).toBeInTheDocument();
    expect(within(dialog).getByText('Keyward for Chrome')).toBeInTheDocument();
    expect(within(dialog).getByText(/no download from Keyward/)).toBeInTheDocument();
    expect(within(dialog).getByText('Then enter this connection code in it:')).toBeInTheDocument();
    // the same code for an iPhone or iPad, or a browser: each with its own steps
    await user.click(within(dialog).getByRole('radio', { name: 'iPhone or iPad' }));
    expect(within(dialog).getByText(/no App Store download for Keyward/)).toBeInTheDocument();
    expect(within(dialog).getAllByRole('link', { name: 'How to install it' })[0]).toHaveAttribute(
      'href',
      '/help/ios-app',
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Chrome browser' }));
    expect(
      within(dialog).getByRole('link', { name: 'Download Keyward for Chrome' }),
    ).toHaveAttribute('href', '/downloads/keyward-chrome.zip');
    expect(within(dialog).getByRole('link', { name: 'install it by policy' })).toHaveAttribute(
      'href',
      '/help/chrome-filter',
    );
    expect(within(dialog).getByText('123456')).toBeInTheDocument();
    // issue 19: a code lives an hour (the server's CONNECTION_CODES.lifetimeSeconds)
    expect(dialog).toHaveTextContent(
      'One code connects one device. It works once and expires in an hour.',
    );
    const getUserCalls = () => calls.filter((call) => call.op === 'GetUser').length;
    const before = getUserCalls();

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(getUserCalls()).toBe(before + 1));
    expect(within(dialog).queryByText(/connected!/)).not.toBeInTheDocument();

    isConnected = true;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('dialog', { name: 'Computer connected' })).toHaveTextContent(
      'Mac mini (M2, 2023) connected!',
    );

    // the list behind the dialog updates without a reload
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const updatedCard = screen.getByRole('article', { name: 'Emma' });
    await waitFor(() =>
      expect(within(updatedCard).getByText('Mac mini (M2, 2023)')).toBeInTheDocument(),
    );
    expect(within(updatedCard).queryByText('Setup incomplete')).not.toBeInTheDocument();
    // polling stops once the dialog is closed
    const afterClose = getUserCalls();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(getUserCalls()).toBe(afterClose);
  });

  test('a browser that connects is named as one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let isConnected = false;
    const emma = childOf();
    const browser = computerOf({
      modelTitle: 'Chrome on Windows',
      modelIdentifier: 'browser:Chrome:windows',
    });
    const connected = childOf({ devices: [browser] });
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [isConnected ? connected : emma] };
      if (op === 'GetUser') return { body: isConnected ? connected : emma };
      if (op === 'CreatePendingAppConnection') return { body: { code: 654321 } };
      return serverError('notFound');
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    await user.click(within(card).getByRole('button', { name: 'Finish setup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    expect(await within(dialog).findByText('654321')).toBeInTheDocument();
    isConnected = true;
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('dialog', { name: 'Browser connected' })).toHaveTextContent(
      "Chrome on Windows connected!Emma's browser is now connected to Keyward.",
    );
  });

  test('shows the error message when no code can be created', async () => {
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [childOf()] };
      if (op === 'GetUser') return { body: childOf() };
      return serverError('badRequest', { userMessage: 'Too many codes' });
    });
    const user = userEvent.setup();
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    await user.click(within(card).getByRole('button', { name: 'Add a computer for Emma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many codes');
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('/children/:userId', () => {
  function serve(child: User) {
    return fakeServer((op) => {
      if (op === 'GetUser') return { body: child };
      if (op === 'GetUsers') return { body: [child] };
      if (op === 'SaveUser' || op === 'DeleteEntity_v2') return { body: { success: true } };
      return serverError('notFound');
    });
  }

  test('edits monitoring, downtime and blocked apps and saves the whole child', async () => {
    const keychainId = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
    const child = childOf({
      devices: [computerOf()],
      keychains: [keychainOf(keychainId, 3)],
    });
    const calls = serve(child);
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);

    const save = await screen.findByRole('button', { name: 'Save child' });
    expect(save).toBeDisabled();
    expect(screen.getByText('MacBook Air (M1, 2020)')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Screenshots' }));
    expect(save).toBeEnabled();
    const frequency = screen.getByLabelText('Frequency (seconds)');
    await user.clear(frequency);
    await user.type(frequency, '5');
    expect(screen.getByText('At least 10 seconds')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(frequency, '0');

    await user.click(screen.getByRole('switch', { name: 'Downtime' }));
    expect(screen.getByLabelText('Start time')).toHaveValue('21:00');
    expect(screen.getByLabelText('End time')).toHaveValue('05:00');

    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    expect(screen.getByPlaceholderText('App name or bundle id')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('App name or bundle id'), 'Roblox');
    await user.click(add);
    expect(screen.getByText('Roblox')).toBeInTheDocument();

    const nameInput = screen.getByLabelText("Child's name");
    await user.clear(nameInput);
    expect(save).toBeDisabled();
    await user.type(nameInput, 'Emmy');
    await user.click(save);

    await waitFor(() => expect(calls.some((call) => call.op === 'SaveUser')).toBe(true));
    const body = calls.find((call) => call.op === 'SaveUser')?.body as Record<string, unknown>;
    expect(body).toEqual({
      id: EMMA_ID,
      isNew: false,
      name: 'Emmy',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotsResolution: 1000,
      screenshotsFrequency: 50,
      showSuspensionActivity: false,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      keychains: [{ id: keychainId }],
      blockedApps: [{ id: expect.stringMatching(UUID_V4), identifier: 'Roblox' }],
    });
    await waitFor(() => expect(save).toBeDisabled());
  });

  test('deletes a computer connection after confirmation', async () => {
    const computer = computerOf();
    const calls = serve(childOf({ devices: [computer] }));
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    await user.click(
      await screen.findByRole('button', { name: 'Delete connection to MacBook Air (M1, 2020)' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete connection?' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this connection? There is no undo.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
        type: 'computerUser',
        id: computer.id,
      }),
    );
  });

  test('issue 32: the devices are listed once, in the overview, and a connection is deleted from its card', async () => {
    const computer = computerOf();
    const familyDevice = {
      kind: 'mac' as const,
      id: computer.id,
      childId: EMMA_ID,
      childName: 'Emma',
      name: 'MacBook Air (M1, 2020)',
      model: 'MacBook Air (M1, 2020)',
      path: `/computers/${computer.deviceId}`,
      status: { case: 'filterOn' as const },
      modelFamily: 'macBookAir' as const,
      pendingRequests: 0,
    };
    const calls = fakeServer((op) => {
      if (op === 'GetUser') return { body: childOf({ devices: [computer] }) };
      if (op === 'GetFamilyDevices') return { body: [familyDevice] };
      if (op === 'DeleteEntity_v2') return { body: { success: true } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    const devices = await screen.findByRole('region', { name: 'Devices' });
    await within(devices).findByRole('heading', { name: 'MacBook Air (M1, 2020)' });
    await screen.findByRole('heading', { name: 'Settings' });
    // once on the page: no second "Computers" list in the settings
    expect(screen.queryByRole('heading', { name: 'Computers' })).not.toBeInTheDocument();
    expect(screen.getAllByText('MacBook Air (M1, 2020)', { selector: 'h3' })).toHaveLength(1);
    await user.click(
      within(devices).getByRole('button', { name: 'Delete connection to MacBook Air (M1, 2020)' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete connection?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
        type: 'computerUser',
        id: computer.id,
      }),
    );
  });

  test('deletes the child after confirmation and goes to the list', async () => {
    const calls = serve(childOf({ devices: [computerOf()] }));
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Delete child' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete child?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(currentLocation()).toBe('/children'));
    expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
      type: 'child',
      id: EMMA_ID,
    });
  });

  test('without changes there is no bar and links go unasked', async () => {
    serve(childOf({ devices: [computerOf()] }));
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    expect(await screen.findByRole('button', { name: 'Save child' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).not.toBeInTheDocument();

    // nothing changed: links go unasked
    await user.click(screen.getAllByRole('link', { name: 'Keychains' })[0] as HTMLElement);
    await waitFor(() => expect(currentLocation()).toBe('/keychains'));
  });

  test('with unsaved changes, leaving asks; Cancel in the sticky bar undoes the edits', async () => {
    serve(childOf({ devices: [computerOf()] }));
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    const save = await screen.findByRole('button', { name: 'Save child' });
    await user.click(screen.getByRole('switch', { name: 'Keystroke logging' }));

    const bar = screen.getByRole('region', { name: 'Unsaved changes' });
    expect(bar).toHaveTextContent('You have unsaved changes');
    expect(bar).toHaveClass('sticky');
    expect(within(bar).getByRole('button', { name: 'Save child' })).toBe(save);
    expect(save).toBeEnabled();

    const keychainsLink = screen.getAllByRole('link', { name: 'Keychains' })[0] as HTMLElement;
    await user.click(keychainsLink);
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent(
      'Your changes to Emma are not saved yet. If you leave now, they are lost.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(currentLocation()).toBe(`/children/${EMMA_ID}`);
    expect(screen.getByRole('switch', { name: 'Keystroke logging' })).toBeChecked();

    await user.click(within(bar).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('switch', { name: 'Keystroke logging' })).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).not.toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.click(screen.getByRole('switch', { name: 'Keystroke logging' }));
    await user.click(keychainsLink);
    await user.click(
      within(screen.getByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    await waitFor(() => expect(currentLocation()).toBe('/keychains'));
  });

  test('the same blocked app twice is refused with a message; the resolution shows its limits', async () => {
    serve(
      childOf({
        devices: [computerOf()],
        screenshotsEnabled: true,
        blockedApps: [{ id: LEO_ID, identifier: 'Roblox' }],
      }),
    );
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    const input = await screen.findByPlaceholderText('App name or bundle id');
    await user.type(input, 'ROBLOX');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(input).toHaveAccessibleDescription("'Roblox' is already in the blocked apps.");
    expect(screen.getAllByRole('button', { name: /^Remove roblox/i })).toHaveLength(1);

    const resolution = screen.getByLabelText('Resolution (pixels)');
    expect(resolution).toHaveAccessibleDescription('From 200 to 4,000 pixels.');
    await user.clear(resolution);
    await user.type(resolution, '5000');
    expect(resolution).toHaveAccessibleDescription(
      'Screenshot resolution must be between 200 and 4,000 pixels.',
    );
    expect(screen.getByRole('button', { name: 'Save child' })).toBeDisabled();
  });

  test('a missing child shows the not-found message', async () => {
    fakeServer(() => serverError('notFound', { entityName: 'Child' }, 404));
    renderApp(`/children/${EMMA_ID}`);
    expect(await screen.findByText('Child not found.')).toBeInTheDocument();
  });
});
