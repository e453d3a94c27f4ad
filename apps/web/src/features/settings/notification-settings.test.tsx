import type { GetAdminOutput } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

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

const ACCOUNT_EMAIL_METHOD = 'e0000000-0000-4000-8000-000000000001';
const PHONE_METHOD = 'e0000000-0000-4000-8000-000000000002';
const SLACK_METHOD = 'e0000000-0000-4000-8000-000000000003';
const NOTIFICATION_ID = 'a0000000-0000-4000-8000-000000000001';
const PENDING_ID = 'f0000000-0000-4000-8000-000000000009';

function adminOf(overrides: Partial<GetAdminOutput> = {}): GetAdminOutput {
  return {
    id: ADMIN_ID,
    email: 'parent@example.com',
    subscriptionStatus: { case: 'paid' },
    notifications: [],
    verifiedNotificationMethods: [
      { id: ACCOUNT_EMAIL_METHOD, config: { case: 'email', email: 'parent@example.com' } },
    ],
    hasAdminChild: false,
    monthlyPriceInDollars: 15,
    ...overrides,
  };
}

/** A fake server keeping one parent's methods and notifications, as GetAdmin shows them. */
function server(initial: GetAdminOutput) {
  let admin = initial;
  const calls = fakeServer((op, body) => {
    switch (op) {
      case 'GetAdmin':
        return { body: admin };
      case 'CreatePendingNotificationMethod':
        return { body: { methodId: PENDING_ID } };
      case 'ConfirmPendingNotificationMethod': {
        const { code } = body as { code: number };
        if (code === 123465) {
          return serverError(
            'unauthorized',
            {
              userMessage: 'Incorrect code. Check it and try again: 2 tries left.',
              dashboardTag: 'incorrectCodeTryAgain',
            },
            401,
          );
        }
        if (code !== 123456) {
          return serverError(
            'unauthorized',
            { userMessage: 'Incorrect or expired code. Please request a new one.' },
            401,
          );
        }
        admin = {
          ...admin,
          verifiedNotificationMethods: [
            ...admin.verifiedNotificationMethods,
            { id: PENDING_ID, config: { case: 'email', email: 'grandma@example.com' } },
          ],
        };
        return { body: { success: true } };
      }
      case 'SaveNotification': {
        const saved = body as { id: string; methodId: string; trigger: never };
        admin = {
          ...admin,
          notifications: [
            ...admin.notifications.filter((n) => n.id !== saved.id),
            { id: saved.id, methodId: saved.methodId, trigger: saved.trigger },
          ],
        };
        return { body: { success: true } };
      }
      case 'DeleteEntity_v2': {
        const { id } = body as { id: string };
        admin = {
          ...admin,
          notifications: admin.notifications.filter((n) => n.id !== id),
          verifiedNotificationMethods: admin.verifiedNotificationMethods.filter((m) => m.id !== id),
        };
        return { body: { success: true } };
      }
      default:
        return serverError('notFound');
    }
  });
  return calls;
}

describe('notification methods', () => {
  test("lists methods: phones as (xxx) xxx-xxxx, 'Not in use', and deletes only deletable ones", async () => {
    const calls = server(
      adminOf({
        verifiedNotificationMethods: [
          { id: ACCOUNT_EMAIL_METHOD, config: { case: 'email', email: 'parent@example.com' } },
          { id: PHONE_METHOD, config: { case: 'text', phoneNumber: '+14155552671' } },
          {
            id: SLACK_METHOD,
            config: { case: 'slack', channelName: 'family', channelId: 'C0123', token: 'xoxb-…' },
          },
        ],
        notifications: [
          { id: NOTIFICATION_ID, trigger: 'unlockRequestSubmitted', methodId: SLACK_METHOD },
        ],
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings');

    const phone = await screen.findByRole('listitem', { name: 'Text message: (415) 555-2671' });
    expect(within(phone).getByText('Not in use')).toBeInTheDocument();
    expect(
      within(phone).getByRole('button', { name: 'Create a notification for (415) 555-2671' }),
    ).toBeInTheDocument();

    // the account's own email cannot be deleted; a method in use neither
    const account = screen.getByRole('listitem', { name: 'Email: parent@example.com' });
    expect(within(account).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    const slack = screen.getByRole('listitem', { name: 'Slack: #family' });
    expect(within(slack).queryByText('Not in use')).not.toBeInTheDocument();
    expect(within(slack).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();

    await user.click(within(phone).getByRole('button', { name: 'Delete (415) 555-2671' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete notification method?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: /415/ })).not.toBeInTheDocument(),
    );
    expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
      type: 'parentVerifiedNotificationMethod',
      id: PHONE_METHOD,
    });
  });

  test("add a method: Sending..., the 6-digit code, Verifying..., then 'One more step!'", async () => {
    let releaseSend: () => void = () => {};
    const calls = server(adminOf());
    const fetchWithServer = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.endsWith('/CreatePendingNotificationMethod')) {
          await new Promise<void>((resolve) => {
            releaseSend = resolve;
          });
        }
        return fetchWithServer(url, init);
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings');

    await user.click(await screen.findByRole('button', { name: 'Add method' }));
    const drawer = screen.getByRole('dialog', { name: 'New notification method' });
    const send = within(drawer).getByRole('button', { name: 'Send code' });
    expect(send).toBeDisabled();
    await user.type(within(drawer).getByLabelText('Email address'), 'grandma@example.com');
    await user.click(send);
    expect(within(drawer).getByRole('button', { name: 'Sending...' })).toBeDisabled();
    releaseSend();

    const code = await within(drawer).findByLabelText('Verification code');
    expect(calls.find((call) => call.op === 'CreatePendingNotificationMethod')?.body).toEqual({
      case: 'email',
      email: 'grandma@example.com',
    });
    const verify = within(drawer).getByRole('button', { name: 'Verify code' });
    await user.type(code, '12345');
    expect(verify).toBeDisabled();
    await user.type(code, '6');
    await user.click(verify);

    const oneMoreStep = await screen.findByRole('dialog', { name: 'One more step!' });
    expect(calls.find((call) => call.op === 'ConfirmPendingNotificationMethod')?.body).toEqual({
      id: PENDING_ID,
      code: 123456,
    });
    expect(
      screen.queryByRole('dialog', { name: 'New notification method' }),
    ).not.toBeInTheDocument();
    await user.click(within(oneMoreStep).getByRole('button', { name: 'Create notification' }));

    // a new card in edit mode, with the new method and the suspension trigger
    const card = await screen.findByRole('article', { name: 'New notification' });
    expect(card).toHaveAttribute('data-highlighted', 'true');
    expect(within(card).getByLabelText('Notify me about')).toHaveValue(
      'suspendFilterRequestSubmitted',
    );
    expect(within(card).getByLabelText('Send to')).toHaveValue(PENDING_ID);
    await user.click(within(card).getByRole('button', { name: 'Save' }));

    const saved = await screen.findByRole('article', { name: 'Suspension requests' });
    expect(within(saved).getByText('Sent to Email: grandma@example.com')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'SaveNotification')?.body).toMatchObject({
      isNew: true,
      methodId: PENDING_ID,
      trigger: 'suspendFilterRequestSubmitted',
    });
  });

  test('a wrong code shows the server message; a new code must be sent', async () => {
    server(adminOf());
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Add method' }));
    const drawer = screen.getByRole('dialog', { name: 'New notification method' });
    await user.type(within(drawer).getByLabelText('Email address'), 'grandma@example.com');
    await user.click(within(drawer).getByRole('button', { name: 'Send code' }));
    await user.type(await within(drawer).findByLabelText('Verification code'), '000000');
    await user.click(within(drawer).getByRole('button', { name: 'Verify code' }));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(
      'Incorrect or expired code. Please request a new one.',
    );
    expect(within(drawer).getByRole('button', { name: 'Send code' })).toBeEnabled();
  });

  // issue 20: a typo does not end the attempt
  test('a mistyped code with tries left keeps the field and says how many remain', async () => {
    const calls = server(adminOf());
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Add method' }));
    const drawer = screen.getByRole('dialog', { name: 'New notification method' });
    await user.type(within(drawer).getByLabelText('Email address'), 'grandma@example.com');
    await user.click(within(drawer).getByRole('button', { name: 'Send code' }));
    const code = await within(drawer).findByLabelText('Verification code');
    await user.type(code, '123465');
    await user.click(within(drawer).getByRole('button', { name: 'Verify code' }));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(
      'Incorrect code. Check it and try again: 2 tries left.',
    );
    expect(within(drawer).getByLabelText('Verification code')).toHaveValue('123465');
    await user.clear(within(drawer).getByLabelText('Verification code'));
    await user.type(within(drawer).getByLabelText('Verification code'), '123456');
    await user.click(within(drawer).getByRole('button', { name: 'Verify code' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New notification method' })).toBeNull(),
    );
    expect(
      calls.filter((call) => call.op === 'ConfirmPendingNotificationMethod').map((c) => c.body),
    ).toEqual([
      { id: PENDING_ID, code: 123465 },
      { id: PENDING_ID, code: 123456 },
    ]);
    expect(calls.filter((call) => call.op === 'CreatePendingNotificationMethod')).toHaveLength(1);
  });

  test('Resend asks for a fresh code; Cancel closes the slide-in', async () => {
    const calls = server(adminOf());
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Add method' }));
    const drawer = screen.getByRole('dialog', { name: 'New notification method' });
    await user.type(within(drawer).getByLabelText('Email address'), 'grandma@example.com');
    await user.click(within(drawer).getByRole('button', { name: 'Send code' }));
    await within(drawer).findByLabelText('Verification code');
    await user.click(within(drawer).getByRole('button', { name: 'Resend code' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.op === 'CreatePendingNotificationMethod')).toHaveLength(2),
    );
    expect(await within(drawer).findByLabelText('Verification code')).toHaveValue('');
    await user.click(within(drawer).getByRole('button', { name: 'Cancel' }));
    expect(
      screen.queryByRole('dialog', { name: 'New notification method' }),
    ).not.toBeInTheDocument();
    expect(calls.some((call) => call.op === 'ConfirmPendingNotificationMethod')).toBe(false);
  });

  test('a text method sends the number in E.164', async () => {
    const calls = server(adminOf());
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Add method' }));
    const drawer = screen.getByRole('dialog', { name: 'New notification method' });
    await user.click(within(drawer).getByText('Text message'));
    await user.type(within(drawer).getByLabelText('Phone number'), '(415) 555-2671');
    await user.click(within(drawer).getByRole('button', { name: 'Send code' }));
    await within(drawer).findByLabelText('Verification code');
    expect(calls.find((call) => call.op === 'CreatePendingNotificationMethod')?.body).toEqual({
      case: 'text',
      phoneNumber: '+14155552671',
    });
  });
});

describe('notifications', () => {
  test("the spec's empty state", async () => {
    server(adminOf());
    renderApp('/settings');
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(screen.getByText('Get started by creating a custom notification')).toBeInTheDocument();
  });

  test('cards toggle to editing; the admin-child trigger only with an admin child', async () => {
    const calls = server(
      adminOf({
        hasAdminChild: true,
        notifications: [
          {
            id: NOTIFICATION_ID,
            trigger: 'unlockRequestSubmitted',
            methodId: ACCOUNT_EMAIL_METHOD,
          },
        ],
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings');
    const card = await screen.findByRole('article', { name: 'Unlock requests' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const trigger = within(card).getByLabelText('Notify me about');
    expect(
      within(trigger)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Suspension requests', 'Unlock requests', 'Alerts', 'Admin-child security events']);
    await user.selectOptions(trigger, 'adminChildSecurityEvent');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByRole('article', { name: 'Admin-child security events' }),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'SaveNotification')?.body).toEqual({
      id: NOTIFICATION_ID,
      isNew: false,
      methodId: ACCOUNT_EMAIL_METHOD,
      trigger: 'adminChildSecurityEvent',
    });
  });

  test("deleting a notification asks first, then the method is 'Not in use'", async () => {
    const calls = server(
      adminOf({
        verifiedNotificationMethods: [
          { id: PHONE_METHOD, config: { case: 'text', phoneNumber: '+14155552671' } },
        ],
        notifications: [
          { id: NOTIFICATION_ID, trigger: 'unlockRequestSubmitted', methodId: PHONE_METHOD },
        ],
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings');
    const card = await screen.findByRole('article', { name: 'Unlock requests' });
    expect(within(card).getByText('Sent to Text message: (415) 555-2671')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete notification?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'DeleteEntity_v2')?.body).toEqual({
      type: 'parentNotification',
      id: NOTIFICATION_ID,
    });
    const phone = screen.getByRole('listitem', { name: 'Text message: (415) 555-2671' });
    expect(within(phone).getByText('Not in use')).toBeInTheDocument();
  });

  test('without an admin child, no admin-child trigger; cancel returns to viewing', async () => {
    server(
      adminOf({
        notifications: [
          {
            id: NOTIFICATION_ID,
            trigger: 'unlockRequestSubmitted',
            methodId: ACCOUNT_EMAIL_METHOD,
          },
        ],
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings');
    const card = await screen.findByRole('article', { name: 'Unlock requests' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    expect(
      within(within(card).getByLabelText('Notify me about'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Suspension requests', 'Unlock requests', 'Alerts']);
    await user.click(within(card).getByRole('button', { name: 'Cancel' }));
    expect(within(card).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });
});
