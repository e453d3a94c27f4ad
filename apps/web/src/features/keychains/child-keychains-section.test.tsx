import type { KeychainSummary, UserKeychainSummary } from '@keyward/contract/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, serverError } from '../../../test/helpers';
import { createQueryClient } from '../../lib/api/query-client';
import { resetSessionCache } from '../../lib/session';
import type { KeychainAssignment } from './child-keychains';
import { ChildKeychainsSection } from './ChildKeychainsSection';
import { GAMES_ID, keyOf, OTHER_PARENT_ID, SCHOOL_ID, summaryOf } from './test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  resetSessionCache();
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const school: UserKeychainSummary = { ...summaryOf({ name: 'School', numKeys: 2 }) };
const own: KeychainSummary[] = [
  summaryOf({ id: SCHOOL_ID, name: 'School', numKeys: 2 }),
  summaryOf({ id: GAMES_ID, name: 'Games', numKeys: 1, description: 'Minecraft servers' }),
];
const bible = summaryOf({
  id: '44444444-4444-4444-8444-444444444444',
  parentId: OTHER_PARENT_ID,
  name: 'Bible study',
  description: 'Bible Gateway and friends',
  isPublic: true,
  numKeys: 4,
  warning: 'Includes a forum',
});

let latest: KeychainAssignment[] = [];

function Harness({ initial }: { initial: KeychainAssignment[] }) {
  const [keychains, setKeychains] = useState(initial);
  latest = keychains;
  return (
    <ChildKeychainsSection
      childName="Emma"
      keychains={keychains}
      loadedKeychains={[school]}
      onChange={setKeychains}
    />
  );
}

function renderSection(initial: KeychainAssignment[]) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <Harness initial={initial} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function selectableServer(lists: { own: KeychainSummary[]; public: KeychainSummary[] }) {
  return fakeServer((op, body) => {
    if (op === 'GetSelectableKeychains') return { body: lists };
    if (op === 'GetAdminKeychain' && body === GAMES_ID) {
      return {
        body: {
          summary: own[1],
          keys: [
            keyOf({
              key: { type: 'domain', domain: 'minecraft.net', scope: { type: 'unrestricted' } },
            }),
          ],
        },
      };
    }
    if (op === 'RequestPublicKeychain') return { body: { success: true } };
    return serverError('notFound');
  });
}

describe('the child page Keychains section', () => {
  test('shows always-active keychains, adds, edits and removes a schedule', async () => {
    selectableServer({ own, public: [bible] });
    const user = userEvent.setup();
    renderSection([{ id: SCHOOL_ID }]);

    const item = screen.getByRole('listitem', { name: 'School' });
    expect(within(item).getByText('2 keys · Always active')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Add schedule' }));
    expect(within(item).getByText('2 keys · Active 07:00–17:00, every day')).toBeInTheDocument();

    await user.click(within(item).getByRole('radio', { name: 'Inactive during these times' }));
    await user.click(within(item).getByRole('checkbox', { name: 'Sunday' }));
    await user.click(within(item).getByRole('checkbox', { name: 'Saturday' }));
    expect(within(item).getByText('2 keys · Inactive 07:00–17:00, weekdays')).toBeInTheDocument();

    // the end must come after the start
    fireEvent.input(within(item).getByLabelText('End time'), { target: { value: '06:00' } });
    expect(within(item).getByRole('alert')).toHaveTextContent('End time must be after start time');
    expect(latest[0]?.schedule?.window.end).toEqual({ hour: 6, minute: 0 });

    await user.click(within(item).getByRole('button', { name: 'Remove schedule' }));
    expect(latest).toEqual([{ id: SCHOOL_ID }]);
    await user.click(within(item).getByRole('button', { name: 'Remove School' }));
    expect(latest).toEqual([]);
    expect(screen.getByText('No keychains yet.')).toBeInTheDocument();
  });

  test('the last selected day cannot be unchecked', async () => {
    selectableServer({ own, public: [] });
    const user = userEvent.setup();
    renderSection([{ id: SCHOOL_ID }]);
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    for (const day of ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await user.click(screen.getByRole('checkbox', { name: day }));
    }
    const saturday = screen.getByRole('checkbox', { name: 'Saturday' });
    await user.click(saturday);
    expect(saturday).toBeChecked();
    expect(latest[0]?.schedule?.days.saturday).toBe(true);
  });
});

describe('the add-keychain drawer', () => {
  test('offers own keychains not yet assigned, previews keys and adds one on a schedule', async () => {
    selectableServer({ own, public: [bible] });
    const user = userEvent.setup();
    renderSection([{ id: SCHOOL_ID }]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));

    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    const add = within(drawer).getByRole('button', { name: 'Add keychain' });
    expect(await within(drawer).findByRole('button', { name: /Games/ })).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: /^School/ })).not.toBeInTheDocument();
    expect(add).toBeDisabled();

    await user.click(within(drawer).getByRole('button', { name: /Games/ }));
    const preview = within(drawer).getByRole('region', { name: 'Selected keychain' });
    expect(
      await within(preview).findByText('minecraft.net (this domain and www. only) in any app'),
    ).toBeInTheDocument();
    expect(add).toBeEnabled();

    await user.click(within(drawer).getByRole('switch', { name: 'Schedule' }));
    await user.click(add);
    expect(screen.queryByRole('dialog', { name: 'Add keychain' })).not.toBeInTheDocument();
    expect(latest.map((k) => k.id)).toEqual([SCHOOL_ID, GAMES_ID]);
    expect(latest[1]?.schedule?.mode).toBe('active');
    const games = screen.getByRole('listitem', { name: 'Games' });
    expect(within(games).getByText('1 key · Active 07:00–17:00, every day')).toBeInTheDocument();
  });

  test('public keychains show their badges; Escape closes the drawer', async () => {
    selectableServer({ own, public: [bible] });
    const user = userEvent.setup();
    renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    await user.click(within(drawer).getByRole('button', { name: 'Public keychains' }));
    const card = await within(drawer).findByRole('button', { name: /Bible study/ });
    expect(within(card).getByText('Public')).toBeInTheDocument();
    expect(within(card).getByText('Warning')).toBeInTheDocument();
    expect(within(card).getByText('4 keys')).toBeInTheDocument();
    await user.click(card);
    const preview = within(drawer).getByRole('region', { name: 'Selected keychain' });
    expect(within(preview).getByText('Bible Gateway and friends')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Add keychain' })).not.toBeInTheDocument();
    expect(latest).toEqual([]);
  });

  test('pages through the keychains 6 at a time', async () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      summaryOf({ id: `00000000-0000-4000-8000-00000000000${i}`, name: `Keychain ${i + 1}` }),
    );
    selectableServer({ own: many, public: [] });
    const user = userEvent.setup();
    renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    await within(drawer).findByText('Keychain 1');
    expect(within(drawer).getAllByRole('button', { name: /^Keychain \d/ })).toHaveLength(6);
    expect(within(drawer).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(drawer).getByRole('button', { name: 'Next' }));
    expect(
      within(drawer)
        .getAllByRole('button', { name: /^Keychain \d/ })
        .map((button) => button.textContent),
    ).toEqual(['Keychain 70 keys', 'Keychain 80 keys']);
    expect(within(drawer).getByText('Page 2 of 2')).toBeInTheDocument();
  });

  test('empty states: no match, no own keychains, all assigned, no public ones', async () => {
    selectableServer({ own, public: [] });
    const user = userEvent.setup();
    const view = renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    let drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    await within(drawer).findByRole('button', { name: /Games/ });
    await user.type(within(drawer).getByRole('searchbox'), 'zzz');
    expect(within(drawer).getByText("Hmm, we couldn't find that keychain")).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Public keychains' }));
    await user.clear(within(drawer).getByRole('searchbox'));
    expect(within(drawer).getByText('No selectable keychains')).toBeInTheDocument();
    view.unmount();

    selectableServer({ own: [], public: [bible] });
    const second = renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    expect(await within(drawer).findByText('No personal keychains')).toBeInTheDocument();
    expect(within(drawer).getByText(/Looks like you don't have any keychains/)).toBeInTheDocument();
    expect(within(drawer).getByRole('link', { name: 'Create one' })).toHaveAttribute(
      'href',
      '/keychains',
    );
    second.unmount();

    selectableServer({ own, public: [] });
    renderSection([{ id: SCHOOL_ID }, { id: GAMES_ID }]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    expect(
      await within(drawer).findByText('Emma already has all of your keychains.'),
    ).toBeInTheDocument();
  });

  test('a public search with no match can request a keychain', async () => {
    const calls = selectableServer({ own, public: [bible] });
    const user = userEvent.setup();
    renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    await user.click(within(drawer).getByRole('button', { name: 'Public keychains' }));
    await within(drawer).findByRole('button', { name: /Bible study/ });
    await user.type(within(drawer).getByRole('searchbox'), 'duolingo');

    const request = within(drawer).getByRole('button', { name: 'Request keychain' });
    expect(request).toBeDisabled();
    await user.type(within(drawer).getByLabelText('Description'), '   ');
    expect(request).toBeDisabled();
    await user.type(within(drawer).getByLabelText('Description'), 'Language lessons');
    await user.click(request);
    expect(await within(drawer).findByText('We received your request!')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((call) => call.op === 'RequestPublicKeychain')?.body).toEqual({
        searchQuery: 'duolingo',
        description: 'Language lessons',
      }),
    );
  });

  test('a failed keychain list says something went wrong', async () => {
    fakeServer(() => serverError('serverError', {}, 500));
    const user = userEvent.setup();
    renderSection([]);
    await user.click(screen.getByRole('button', { name: 'Add keychain' }));
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    expect(await within(drawer).findByText('Hmm, something went wrong')).toBeInTheDocument();
  });
});

describe('pending keychains', () => {
  test('a keychain added since loading says it is not saved yet; loaded ones do not', async () => {
    selectableServer({ own, public: [] });
    renderSection([{ id: SCHOOL_ID }, { id: GAMES_ID }]);
    const games = await screen.findByRole('listitem', { name: 'Games' });
    expect(within(games).getByText('Not saved yet')).toBeInTheDocument();
    expect(
      within(games).getByText('Emma gets this keychain once you save the child.'),
    ).toBeInTheDocument();
    const loaded = screen.getByRole('listitem', { name: 'School' });
    expect(within(loaded).queryByText('Not saved yet')).not.toBeInTheDocument();
  });
});
