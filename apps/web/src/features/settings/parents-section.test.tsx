import type { FamilyParent, GetAdminOutput } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import {
  INVALID_INVITE_EMAIL,
  initialParentsSectionState,
  parentActions,
  parentsSectionReducer,
} from './parents-section';

vi.mock('sonner', () => ({
  toast: { loading: vi.fn(), success: vi.fn(), error: vi.fn() },
  Toaster: () => null,
}));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const CO_ID = '33333333-3333-4333-8333-333333333333';
const INVITED_ID = '44444444-4444-4444-8444-444444444444';

const owner: FamilyParent = {
  id: ADMIN_ID,
  email: 'dana@example.com',
  role: 'owner',
  status: 'active',
};
const co: FamilyParent = {
  id: CO_ID,
  email: 'sam@example.com',
  role: 'coParent',
  status: 'active',
};
const invited: FamilyParent = {
  id: INVITED_ID,
  email: 'kim@example.com',
  role: 'coParent',
  status: 'invited',
};

function admin(role?: 'coParent'): GetAdminOutput {
  return {
    id: ADMIN_ID,
    email: 'dana@example.com',
    subscriptionStatus: { case: 'paid' },
    notifications: [],
    verifiedNotificationMethods: [],
    hasAdminChild: false,
    monthlyPriceInDollars: 10,
    ...(role ? { role } : {}),
  };
}

async function parentsCard() {
  const heading = await screen.findByRole('heading', { name: 'Parents' });
  return within(heading.closest('section') as HTMLElement);
}

describe('parentActions', () => {
  test.each<[FamilyParent, 'owner' | 'coParent', string[]]>([
    [owner, 'owner', []],
    [co, 'owner', ['remove']],
    [invited, 'owner', ['resend', 'revoke']],
    [owner, 'coParent', []],
    [co, 'coParent', []],
    [invited, 'coParent', []],
  ])('%j seen by %s: %j', (parent, viewer, actions) => {
    expect(parentActions(parent, viewer)).toEqual(actions);
  });
});

describe('parentsSectionReducer', () => {
  test.each([
    ['', INVALID_INVITE_EMAIL, false],
    ['not-an-email', INVALID_INVITE_EMAIL, false],
    ['kim@example.com', undefined, true],
  ])('inviting %j: error %j, sending %j', (email, error, isInviting) => {
    const typed = parentsSectionReducer(initialParentsSectionState, {
      type: 'emailChanged',
      email,
    });
    const submitted = parentsSectionReducer(typed, { type: 'inviteSubmitted' });
    expect(submitted.emailError).toBe(error);
    expect(submitted.isInviting).toBe(isInviting);
  });

  test('a removal waits for confirmation and names the person afterwards', () => {
    const asked = parentsSectionReducer(initialParentsSectionState, {
      type: 'removeRequested',
      id: CO_ID,
      email: 'sam@example.com',
      action: 'remove',
    });
    expect(asked.confirming).toEqual({ id: CO_ID, email: 'sam@example.com', action: 'remove' });
    expect(parentsSectionReducer(asked, { type: 'removeCancelled' }).confirming).toBeUndefined();
    const done = parentsSectionReducer(asked, { type: 'removeSucceeded' });
    expect(done.confirming).toBeUndefined();
    expect(done.notice).toBe('sam@example.com was removed and signed out.');
  });
});

describe('Settings → Parents', () => {
  test('the owner lists, invites, resends and removes', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin() };
      if (op === 'GetParents') return { body: [owner, co, invited] };
      return { body: { success: true } };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const card = await parentsCard();
    expect(await card.findByText('sam@example.com')).toBeInTheDocument();
    expect(card.getByText('invited')).toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Send invitation' }));
    expect(card.getByText(INVALID_INVITE_EMAIL)).toBeInTheDocument();
    await user.type(card.getByLabelText('Invite a parent by email'), 'lee@example.com');
    await user.click(card.getByRole('button', { name: 'Send invitation' }));
    expect(
      await card.findByText('Invitation sent to lee@example.com. The link works for 7 days.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.op === 'InviteParent')?.body).toEqual({ email: 'lee@example.com' });

    await user.click(card.getByRole('button', { name: 'Resend' }));
    expect(await card.findByText('Invitation sent again to kim@example.com.')).toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/will be signed out at once/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.find((c) => c.op === 'RemoveParent')?.body).toEqual({ id: CO_ID }),
    );
    expect(
      await card.findByText('sam@example.com was removed and signed out.'),
    ).toBeInTheDocument();
  });

  test('an invitation the server refuses shows its message', async () => {
    fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin() };
      if (op === 'GetParents') return { body: [owner] };
      return serverError('badRequest', {
        userMessage:
          'This email address already has its own account or is already a parent of a family.',
      });
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const card = await parentsCard();
    await user.type(card.getByLabelText('Invite a parent by email'), 'taken@example.com');
    await user.click(card.getByRole('button', { name: 'Send invitation' }));
    expect(await card.findByRole('alert')).toHaveTextContent(/already has its own account/);
  });

  test('a co-parent sees the list read-only, no billing link, and the owner-only note', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin('coParent') };
      if (op === 'GetParents') return { body: [owner, co, invited] };
      return { body: { success: true } };
    });
    renderApp('/settings');
    const card = await parentsCard();
    expect(await card.findByText('kim@example.com')).toBeInTheDocument();
    expect(
      card.getByText('Only the account owner can invite or remove parents.'),
    ).toBeInTheDocument();
    expect(card.queryByRole('button')).toBeNull();
    expect(card.queryByLabelText('Invite a parent by email')).toBeNull();
    expect(screen.getByText('Only the account owner can manage billing.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage subscription...' })).toBeNull();
    expect(calls.some((c) => c.op === 'StripeUrl')).toBe(false);
  });
});
