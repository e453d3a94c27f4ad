import type { GetIOSDeviceOutput } from '@keyward/contract/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  type Call,
  currentLocation,
  fakeServer,
  loggedIn,
  renderApp,
  serverError,
} from '../../../test/helpers';
import { childOf } from '../children/test-fixtures';
import { ADS, CHILD_ID, DEVICE_ID, deviceOf, REQUEST_ID, RULE_ID, SOCIAL } from './test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const LIST = [
  { id: DEVICE_ID, childName: 'Lily', deviceType: 'iPad', osVersion: '17.5', childId: CHILD_ID },
];

function serve(device: GetIOSDeviceOutput, list: unknown[] = LIST): Call[] {
  return fakeServer((op) => {
    if (op === 'IOSDevices') return { body: list };
    if (op === 'GetIOSDevice') return { body: device };
    if (op === 'UpdateIOSDevice') return { body: { success: true } };
    if (op === 'UpsertBlockRule') return { body: RULE_ID };
    if (op === 'DeleteEntity_v2') return { body: { success: true } };
    return serverError('notFound');
  });
}

const bodiesOf = (calls: Call[], op: string) => calls.filter((c) => c.op === op).map((c) => c.body);

// The list pages are DevicesPage (features/devices/devices.test.tsx).

describe('/ios-devices/:id settings', () => {
  test('groups, the web policy and its domains, saved together with Save settings', {
    timeout: 20_000,
  }, async () => {
    const calls = serve(deviceOf());
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    expect(await screen.findByRole('heading', { name: "Lily's iPad" })).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save settings' });
    expect(save).toBeDisabled();
    expect(
      screen.getByRole('radio', { name: /Block all websites No website opens/ }),
    ).toBeChecked();

    await user.click(screen.getByRole('switch', { name: 'Games' }));
    expect(screen.getByRole('switch', { name: 'Games' })).toHaveAttribute('aria-checked', 'false');
    expect(save).toBeEnabled();

    // no domain list for blockAll
    expect(screen.queryByRole('textbox', { name: 'Domain' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: /Block all websites except these/ }));
    const domain = screen.getByRole('textbox', { name: 'Domain' });
    const add = screen.getByRole('button', { name: 'Add domain' });
    expect(add).toBeDisabled();
    await user.type(domain, '   ');
    expect(add).toBeDisabled();
    await user.clear(domain);
    await user.type(domain, 'KhanAcademy.org');
    await user.click(add);
    expect(domain).toHaveValue('');
    await user.type(domain, 'khanacademy.org');
    expect(add).toBeDisabled(); // a duplicate
    await user.clear(domain);
    await user.type(domain, 'wikipedia.org{Enter}');
    await user.type(domain, 'scratch.mit.edu{Enter}');
    const list = screen.getByRole('list', { name: 'Allowed domains' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['khanacademy.org', 'wikipedia.org', 'scratch.mit.edu']);
    await user.click(screen.getByRole('button', { name: 'Remove scratch.mit.edu' }));

    await user.click(save);
    await waitFor(() =>
      expect(bodiesOf(calls, 'UpdateIOSDevice')).toEqual([
        {
          deviceId: DEVICE_ID,
          enabledBlockGroups: [ADS, SOCIAL],
          webPolicy: 'blockAllExcept',
          webPolicyDomains: ['khanacademy.org', 'wikipedia.org'],
        },
      ]),
    );
    await waitFor(() => expect(save).toBeDisabled());
  });

  test('blockAdultAnd lists blocked domains; Discard changes restores the saved settings', async () => {
    serve(deviceOf({ webPolicy: 'blockAdultAnd', webPolicyDomains: ['tiktok.com'] }));
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    const list = await screen.findByRole('list', { name: 'Blocked domains' });
    expect(list).toHaveTextContent('tiktok.com');
    await user.click(screen.getByRole('radio', { name: /Allow all websites/ }));
    expect(screen.queryByRole('list', { name: 'Blocked domains' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(screen.getByRole('list', { name: 'Blocked domains' })).toHaveTextContent('tiktok.com');
    expect(screen.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  });

  test('a missing or another parent’s device: not found, with a way back', async () => {
    fakeServer((op) =>
      op === 'GetIOSDevice'
        ? serverError('notFound', { entityName: 'iOS device' }, 404)
        : { body: [] },
    );
    renderApp(`/ios-devices/${DEVICE_ID}`);
    expect(await screen.findByText('iOS device not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to iOS devices' })).toHaveAttribute(
      'href',
      '/ios-devices',
    );
  });
});

describe('/ios-devices/:id block rules', () => {
  // issue 20: a double click on Save rule adds one rule
  test('a double click on Save rule sends one save', async () => {
    const calls = serve(deviceOf());
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Add block rule' }));
    const form = screen.getByRole('form', { name: 'New block rule' });
    await user.type(within(form).getByRole('textbox', { name: 'App' }), 'com.roblox.client');
    await user.dblClick(within(form).getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New block rule' })).toBeNull());
    expect(bodiesOf(calls, 'UpsertBlockRule')).toHaveLength(1);
  });

  test("'No block rules'; a new app rule 'unless address contains', one per line", {
    timeout: 20_000,
  }, async () => {
    const calls = serve(deviceOf());
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    expect(await screen.findByText('No block rules')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add block rule' }));
    const form = screen.getByRole('form', { name: 'New block rule' });
    const saveRule = within(form).getByRole('button', { name: 'Save rule' });
    expect(saveRule).toBeDisabled();
    const app = within(form).getByRole('textbox', { name: 'App' });
    expect(app).toHaveAttribute('placeholder', 'App name or bundle id');
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'completely',
      'when address contains',
      'unless address contains',
      'when it is a browser',
    ]);
    await user.type(app, 'com.apple.mobilesafari');
    expect(saveRule).toBeEnabled();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Condition' }), [
      'unless address contains',
    ]);
    expect(saveRule).toBeDisabled();
    const lines = within(form).getByRole('textbox', { name: 'Addresses (one per line)' });
    await user.type(lines, 'khanacademy.org{Enter}{Enter}wikipedia.org');
    await user.click(saveRule);
    await waitFor(() =>
      expect(bodiesOf(calls, 'UpsertBlockRule')).toEqual([
        {
          deviceId: DEVICE_ID,
          rule: {
            case: 'unless',
            rule: { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
            negatedBy: [
              { case: 'targetContains', value: 'khanacademy.org' },
              { case: 'targetContains', value: 'wikipedia.org' },
            ],
          },
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New block rule' })).toBeNull());
  });

  test('an address rule offers two conditions; a rule is edited and deleted', {
    timeout: 20_000,
  }, async () => {
    const rule = { case: 'targetContains' as const, value: 'roblox.com' };
    const calls = serve(deviceOf({ customBlockRules: [{ id: RULE_ID, rule }] }));
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    const rules = await screen.findByRole('list', { name: 'Block rules' });
    expect(rules).toHaveTextContent('Block the address roblox.com completely');

    await user.click(
      within(rules).getByRole('button', {
        name: 'Edit rule: Block the address roblox.com completely',
      }),
    );
    const form = screen.getByRole('form', { name: 'Edit block rule' });
    expect(within(form).getByRole('radio', { name: 'An address' })).toBeChecked();
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['completely', 'when it is a browser']);
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Condition' }), [
      'when it is a browser',
    ]);
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    await waitFor(() =>
      expect(bodiesOf(calls, 'UpsertBlockRule')).toEqual([
        {
          id: RULE_ID,
          deviceId: DEVICE_ID,
          rule: { case: 'both', a: rule, b: { case: 'flowTypeIs', value: 'browser' } },
        },
      ]),
    );

    await user.click(
      within(rules).getByRole('button', { name: /Delete rule: Block the address roblox.com/ }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete block rule?' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this block rule? There is no undo.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(bodiesOf(calls, 'DeleteEntity_v2')).toEqual([{ type: 'blockRule', id: RULE_ID }]),
    );
  });

  test('a refused rule shows the server’s message and stays open', async () => {
    fakeServer((op) => {
      if (op === 'GetIOSDevice') return { body: deviceOf() };
      if (op === 'UpsertBlockRule') {
        return serverError('badRequest', { userMessage: 'The value is too long.' });
      }
      return { body: [] };
    });
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Add block rule' }));
    const form = screen.getByRole('form', { name: 'New block rule' });
    await user.type(within(form).getByRole('textbox', { name: 'App' }), 'roblox');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The value is too long.');
    expect(within(form).getByRole('button', { name: 'Save rule' })).toBeEnabled();
  });
});

describe('pending suspension requests', () => {
  test('each links to the suspension page of the child', async () => {
    const createdAt = new Date(Date.now() - 10 * 60_000).toISOString();
    serve(
      deviceOf({
        pendingSuspensionRequests: [
          { id: REQUEST_ID, createdAt, duration: 1200, comment: 'school video' },
        ],
      }),
    );
    const user = userEvent.setup();
    renderApp(`/ios-devices/${DEVICE_ID}`);
    const heading = await screen.findByRole('heading', { name: 'Suspension requests' });
    const card = heading.closest('section') as HTMLElement;
    expect(card).toHaveTextContent('20 minutes');
    expect(card).toHaveTextContent('“school video”');
    await user.click(within(card).getByRole('link', { name: 'Review request' }));
    await waitFor(() =>
      expect(currentLocation()).toBe(`/children/${CHILD_ID}/suspend-filter-requests/${REQUEST_ID}`),
    );
  });

  test('no card when nothing is waiting', async () => {
    serve(deviceOf());
    renderApp(`/ios-devices/${DEVICE_ID}`);
    expect(await screen.findByRole('heading', { name: 'Block groups' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Suspension requests' })).toBeNull();
  });
});

describe('children cards', () => {
  test('list a child’s iOS devices beside its computers', async () => {
    const lily = childOf({ id: CHILD_ID, name: 'Lily', devices: [] });
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [lily] };
      if (op === 'IOSDevices') return { body: LIST };
      return serverError('notFound');
    });
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Lily' });
    const ios = await within(card).findByRole('list', { name: "Lily's iOS devices" });
    expect(within(ios).getByRole('link', { name: 'iPad' })).toHaveAttribute(
      'href',
      `/ios-devices/${DEVICE_ID}`,
    );
    expect(ios).toHaveTextContent('iOS 17.5');
    expect(within(card).queryByText('Setup incomplete')).toBeNull();
    expect(card).toHaveTextContent('No computers yet.');
  });
});

describe('connection code dialog', () => {
  test('shows the iPad as soon as it connects with the code', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let isConnected = false;
      const lily = childOf({ id: CHILD_ID, name: 'Lily', devices: [] });
      const other = { ...LIST[0], id: RULE_ID, childId: REQUEST_ID, childName: 'Max' };
      fakeServer((op) => {
        if (op === 'GetUsers') return { body: [lily] };
        if (op === 'GetUser') return { body: lily };
        if (op === 'IOSDevices') return { body: isConnected ? [other, ...LIST] : [other] };
        if (op === 'CreatePendingAppConnection') return { body: { code: 123456 } };
        return serverError('notFound');
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp('/children');
      const card = await screen.findByRole('article', { name: 'Lily' });
      await user.click(within(card).getByRole('button', { name: 'Finish setup' }));
      const dialog = await screen.findByRole('dialog', { name: 'Connect a device' });
      expect(await within(dialog).findByText('123456')).toBeInTheDocument();

      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(within(dialog).queryByText(/connected!/)).not.toBeInTheDocument();

      isConnected = true;
      await act(() => vi.advanceTimersByTimeAsync(2000));
      const done = await screen.findByRole('dialog', { name: 'iPad connected' });
      expect(done).toHaveTextContent("iPad connected!Lily's iPad is now connected to Keyward.");
      await user.click(within(done).getByRole('button', { name: 'Done' }));
      // the card behind the dialog lists it without a reload
      expect(
        await within(card).findByRole('list', { name: "Lily's iOS devices" }),
      ).toHaveTextContent('iPad');
    } finally {
      vi.useRealTimers();
    }
  });
});
