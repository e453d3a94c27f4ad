import type { Device } from '@keyward/contract/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const COMPUTER_ID = 'bb22cc33-dd44-4e55-8f66-007788990011';
const EMMA_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
const LEO_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716';
const LATEST = { stable: '2.4.0', beta: '2.5.0-beta.1', canary: '2.6.0' };

function computerOf(overrides: Partial<Device> = {}): Device {
  return {
    id: COMPUTER_ID,
    releaseChannel: 'stable',
    users: [
      { id: EMMA_ID, name: 'Emma', status: { case: 'offline' } },
      { id: LEO_ID, name: 'Leo', status: { case: 'filterOff' } },
    ],
    appVersion: '2.4.0',
    serialNumber: 'C02XK1ZZJG5H',
    modelIdentifier: 'MacBookPro18,3',
    modelFamily: 'macBookPro',
    modelTitle: '14" MacBook Pro (M1 Pro, 2021)',
    ...overrides,
  };
}

function serve(computer: Device, latest = LATEST) {
  return fakeServer((op) => {
    if (op === 'GetDevices') return { body: [computer] };
    if (op === 'GetDevice') return { body: computer };
    if (op === 'LatestAppVersions') return { body: latest };
    if (op === 'SaveDevice') return { body: { success: true } };
    return serverError('notFound');
  });
}

// The list pages are DevicesPage (features/devices/devices.test.tsx).

describe('/computers/:computerId', () => {
  test('shows the details, children using it and an up-to-date version', async () => {
    serve(computerOf());
    renderApp(`/computers/${COMPUTER_ID}`);
    expect(await screen.findByText('C02XK1ZZJG5H')).toBeInTheDocument();
    expect(screen.getByText('MacBookPro18,3')).toBeInTheDocument();
    expect(await screen.findByText('Up to date')).toBeInTheDocument();
    expect(screen.queryByText('Updates available')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Emma' })).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Leo' })).toBeInTheDocument();
  });

  test.each([
    ['stable', '2.3.9', 'Updates available'],
    ['stable', '2.10.0', 'Up to date'],
    ['canary', '2.5.0', 'Updates available'],
    ['canary', '2.6.0', 'Up to date'],
  ] as const)('on %s running %s: %s (semver, per channel)', async (channel, version, badge) => {
    serve(computerOf({ releaseChannel: channel, appVersion: version }));
    renderApp(`/computers/${COMPUTER_ID}`);
    expect(await screen.findByText(badge)).toBeInTheDocument();
  });

  test('Save is disabled until the name or channel changes; the name is trimmed', async () => {
    const calls = serve(computerOf({ name: 'Study Mac' }));
    const user = userEvent.setup();
    renderApp(`/computers/${COMPUTER_ID}`);
    const save = await screen.findByRole('button', { name: 'Save computer' });
    const name = screen.getByLabelText('Name');
    expect(name).toHaveValue('Study Mac');
    expect(save).toBeDisabled();

    await user.type(name, '   ');
    expect(save).toBeDisabled();
    await user.clear(name);
    await user.type(name, '  Desk Mac ');
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'SaveDevice')?.body).toEqual({
        id: COMPUTER_ID,
        name: 'Desk Mac',
        releaseChannel: 'stable',
      }),
    );
  });

  test('an emptied name is sent as undefined (absent) with the new channel', async () => {
    const calls = serve(computerOf({ name: 'Study Mac' }));
    const user = userEvent.setup();
    renderApp(`/computers/${COMPUTER_ID}`);
    const save = await screen.findByRole('button', { name: 'Save computer' });
    await user.clear(screen.getByLabelText('Name'));
    await user.selectOptions(screen.getByLabelText('Release channel'), 'beta');
    await user.click(save);
    await waitFor(() => expect(calls.some((call) => call.op === 'SaveDevice')).toBe(true));
    const body = calls.find((call) => call.op === 'SaveDevice')?.body;
    expect(body).toEqual({ id: COMPUTER_ID, releaseChannel: 'beta' });
    expect(body).not.toHaveProperty('name');
  });

  test('changing only the channel enables Save, and changing it back disables it', async () => {
    serve(computerOf());
    const user = userEvent.setup();
    renderApp(`/computers/${COMPUTER_ID}`);
    const save = await screen.findByRole('button', { name: 'Save computer' });
    await user.selectOptions(screen.getByLabelText('Release channel'), 'canary');
    expect(save).toBeEnabled();
    await user.selectOptions(screen.getByLabelText('Release channel'), 'stable');
    expect(save).toBeDisabled();
  });
});
