import type { DnsDeviceDetails } from '@keyward/contract/dashboard';
import type { Device, FamilyDevice } from '@keyward/contract/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { childOf, EMMA_ID } from '../children/test-fixtures';

// Issue 33: a Keyward DNS device as the parent sees it: its status words on its card (Filtering /
// Not seen for N hours), its own page, and Recently blocked on the child's page.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const COMPUTER_ID = 'd1000000-0000-4000-8000-000000000001';
const DEVICE_ID = 'd2000000-0000-4000-8000-000000000001';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const HOUR = 60 * 60 * 1000;

const computer: Device = {
  id: COMPUTER_ID,
  name: 'Emma’s phone',
  releaseChannel: 'stable',
  users: [{ id: EMMA_ID, name: 'Emma', status: { case: 'offline' } }],
  appVersion: 'dns',
  serialNumber: `dns-${COMPUTER_ID}`,
  modelIdentifier: 'dns:android',
  modelFamily: 'unknown',
  modelTitle: 'Android phone or tablet (Keyward DNS)',
};

function details(overrides: Partial<DnsDeviceDetails> = {}): DnsDeviceDetails {
  return {
    id: DEVICE_ID,
    computerId: COMPUTER_ID,
    childId: EMMA_ID,
    childName: 'Emma',
    name: 'Emma’s phone',
    kind: 'android',
    dohUrl: `https://keyward.example/dns-query/${DEVICE_ID}`,
    dotHostname: `${DEVICE_ID}.dns.keyward.example`,
    hasRemovalPassword: false,
    lastQueryAt: ago(3 * 60_000),
    queriesToday: 12,
    blockedToday: 2,
    topAllowed: [{ name: 'khanacademy.org', count: 10, lastAt: ago(60_000) }],
    topBlocked: [{ name: 'games.example', count: 2, lastAt: ago(2 * 60_000) }],
    recentlyBlocked: [{ name: 'games.example', count: 2, lastAt: ago(2 * 60_000) }],
    keysNotForDns: 2,
    ...overrides,
  };
}

const familyDevice = (lastSeenAt?: string): FamilyDevice => ({
  kind: 'dns',
  id: DEVICE_ID,
  childId: EMMA_ID,
  childName: 'Emma',
  name: 'Emma’s phone',
  model: 'Android phone or tablet (Keyward DNS)',
  path: `/computers/${COMPUTER_ID}`,
  computerId: COMPUTER_ID,
  ...(lastSeenAt ? { lastSeenAt } : {}),
  pendingRequests: 0,
});

function serve(dns: DnsDeviceDetails, devices: FamilyDevice[] = [familyDevice(dns.lastQueryAt)]) {
  return fakeServer((op, input) => {
    if (op === 'GetDevice') return { body: computer };
    if (op === 'GetDnsDevice') {
      return input === COMPUTER_ID ? { body: dns } : serverError('notFound');
    }
    if (op === 'GetFamilyDevices') return { body: devices };
    if (op === 'GetDevices') return { body: [] };
    if (op === 'GetUser') return { body: childOf({ devices: [] }) };
    if (op === 'GetInbox') return { body: { items: [] } };
    if (op === 'IOSDevices') return { body: [] };
    if (op === 'ChildActivitySummaries') return { body: { childName: 'Emma', days: [] } };
    return serverError('notFound');
  });
}

describe('a Keyward DNS device’s page', () => {
  test('filtering, today’s queries, top names, what DNS cannot enforce, its addresses', async () => {
    serve(details());
    renderApp(`/computers/${COMPUTER_ID}`);
    expect(await screen.findByRole('heading', { name: 'Emma’s phone' })).toBeInTheDocument();
    expect(screen.getByText('Filtering')).toBeInTheDocument();
    expect(screen.getByText('Last query 3 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('12 queries, 2 blocked')).toBeInTheDocument();
    const allowed = screen.getByRole('region', { name: 'Allowed' });
    expect(within(allowed).getByText('khanacademy.org')).toBeInTheDocument();
    expect(within(allowed).getByText('10×')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Blocked' })).getByText('games.example'),
    ).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(
      '2 of this child’s keys do not apply on a Keyward DNS device',
    );
    expect(screen.getByText(`${DEVICE_ID}.dns.keyward.example`)).toBeInTheDocument();
    // a Mac's details are not a DNS device's
    expect(screen.queryByText('Release channel')).not.toBeInTheDocument();
    expect(screen.queryByText('Serial number')).not.toBeInTheDocument();
  });

  test('a quiet device is not seen for N hours; no note when every key applies', async () => {
    serve(details({ lastQueryAt: ago(5 * HOUR + 60_000), keysNotForDns: 0 }));
    renderApp(`/computers/${COMPUTER_ID}`);
    expect(await screen.findByText('Not seen for 5 hours')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

describe('a Keyward DNS device on the child’s page', () => {
  test('its card says Filtering, and Recently blocked on it lists the names', async () => {
    serve(details());
    renderApp(`/children/${EMMA_ID}`);
    const card = await screen.findByRole('article', { name: 'Emma’s phone' });
    expect(within(card).getByText('Filtering')).toBeInTheDocument();
    expect(within(card).queryByText('Offline')).not.toBeInTheDocument();
    const recent = await screen.findByRole('region', { name: 'Recently blocked on Emma’s phone' });
    expect(await within(recent).findByText('games.example')).toBeInTheDocument();
  });

  test('a device never seen says so on its card', async () => {
    serve(details({ lastQueryAt: undefined }), [familyDevice()]);
    renderApp(`/children/${EMMA_ID}`);
    const card = await screen.findByRole('article', { name: 'Emma’s phone' });
    expect(within(card).getByText('Not seen yet')).toBeInTheDocument();
  });
});
