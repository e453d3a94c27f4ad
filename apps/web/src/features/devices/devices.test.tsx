import type { FamilyDevice } from '@keyward/contract/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { groupDevices } from './devices';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const EMMA = 'aa11bb22-cc33-4d44-8e55-667788990011';
const LEO = 'bb22cc33-dd44-4e55-8f66-778899001122';
const LILY = 'cc33dd44-ee55-4f66-8077-889900112233';
const COMPUTER = 'dd44ee55-ff66-4077-8188-990011223344';
const IPAD = 'ee55ff66-0077-4188-8299-001122334455';
const CHROMEBOOK = '11223344-5566-4778-8899-aabbccddeeff';

const mac = (overrides: Partial<FamilyDevice>): FamilyDevice => ({
  kind: 'mac',
  id: 'ff660077-1188-4299-83aa-112233445566',
  childId: EMMA,
  childName: 'Emma',
  name: 'Family MacBook',
  model: '14" MacBook Pro (M1 Pro, 2021)',
  path: `/computers/${COMPUTER}`,
  status: { case: 'filterOn' },
  modelFamily: 'macBookPro',
  pendingRequests: 0,
  ...overrides,
});

const DEVICES: FamilyDevice[] = [
  mac({}),
  mac({
    id: '0077118a-2299-43aa-84bb-223344556677',
    childId: LEO,
    childName: 'Leo',
    status: { case: 'offline' },
    pendingRequests: 2,
  }),
  {
    kind: 'ios',
    id: IPAD,
    childId: LILY,
    childName: 'Lily',
    name: 'iPad',
    model: 'iPad',
    path: `/ios-devices/${IPAD}`,
    osVersion: '17.5',
    lastSeenAt: new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    pendingRequests: 1,
  },
  // a browser has a Mac's shape, under its own kind
  mac({
    kind: 'browser',
    id: '22334455-6677-4889-9aab-bccddeeff001',
    childId: LILY,
    childName: 'Lily',
    name: 'Chrome on ChromeOS',
    model: 'Chrome on ChromeOS',
    path: `/computers/${CHROMEBOOK}`,
    modelFamily: 'unknown',
    pendingRequests: 1,
  }),
];

function serve(devices: FamilyDevice[]) {
  return fakeServer((op) => {
    if (op === 'GetFamilyDevices') return { body: devices };
    if (op === 'IOSDevices') return { body: [] };
    if (op === 'GetInbox') return { body: { items: [] } };
    return serverError('notFound');
  });
}

describe('groupDevices', () => {
  test('a Mac shared by two children is one device; kinds are kept apart', () => {
    expect(groupDevices(DEVICES, ['mac'])).toMatchObject([
      {
        path: `/computers/${COMPUTER}`,
        pendingRequests: 2,
        entries: [{ childName: 'Emma' }, { childName: 'Leo' }],
      },
    ]);
    expect(groupDevices(DEVICES, ['ios']).map((group) => group.path)).toEqual([
      `/ios-devices/${IPAD}`,
    ]);
    expect(groupDevices(DEVICES, ['mac', 'browser']).map((group) => group.kind)).toEqual([
      'mac',
      'browser',
    ]);
    expect(groupDevices(DEVICES)).toHaveLength(3);
  });
});

describe('one devices page for every kind', () => {
  test('/computers: each computer with the children using it, their status and its requests', async () => {
    serve(DEVICES);
    renderApp('/computers');
    const card = await screen.findByRole('article', { name: 'Family MacBook' });
    expect(card.querySelector('svg[data-shape="laptop"]')).not.toBeNull();
    expect(card).toHaveTextContent('14" MacBook Pro (M1 Pro, 2021)');
    expect(card).toHaveTextContent(/EmmaFilter on/);
    expect(card).toHaveTextContent(/LeoOffline/);
    expect(within(card).getByRole('link', { name: '2 waiting' })).toHaveAttribute('href', '/inbox');
    expect(within(card).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/computers/${COMPUTER}`,
    );
    expect(screen.queryByRole('article', { name: "Lily's iPad" })).toBeNull();
  });

  test('/computers: a browser with Keyward for Chrome is listed with the computers, as a browser', async () => {
    serve(DEVICES);
    renderApp('/computers');
    const card = await screen.findByRole('article', { name: 'Chrome on ChromeOS' });
    // a globe, not a Mac's picture
    expect(card.querySelector('svg[data-shape]')).toBeNull();
    expect(card).toHaveTextContent(/LilyFilter on/);
    expect(within(card).getByRole('link', { name: '1 waiting' })).toHaveAttribute('href', '/inbox');
    expect(within(card).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/computers/${CHROMEBOOK}`,
    );
  });

  test('/ios-devices: the same card for an iPad, with its last contact and iOS version', async () => {
    serve(DEVICES);
    renderApp('/ios-devices');
    const card = await screen.findByRole('article', { name: "Lily's iPad" });
    expect(card).toHaveTextContent('Last contact 3 minutes ago');
    expect(card).toHaveTextContent('iOS version17.5');
    expect(within(card).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      `/ios-devices/${IPAD}`,
    );
  });

  test.each([
    ['/computers', 'No computers', /appear here once a filter on your child's device/],
    ['/ios-devices', 'No iOS devices', /once the Keyward iOS app is connected/],
  ])('%s explains where devices come from when there are none', async (path, title, text) => {
    serve([]);
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});
