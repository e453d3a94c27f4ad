import type { GetAdminOutput } from '@keyward/contract/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

// Issue 12: Settings → Sign-in security (authenticator app) and Download my data.

const ceremony = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ceremony);

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

const admin: GetAdminOutput = {
  id: ADMIN_ID,
  email: 'dana@example.com',
  subscriptionStatus: { case: 'paid' },
  notifications: [],
  verifiedNotificationMethods: [],
  hasAdminChild: false,
  monthlyPriceInDollars: 10,
};
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${String(i).padStart(2, '0')}`);
const EXPORT_ID = '55555555-5555-4555-8555-555555555555';

describe('Settings → Sign-in security', () => {
  test('set up the authenticator app: QR code and key, a wrong then a right code, recovery codes once', async () => {
    let enabled = false;
    let confirmations = 0;
    const calls = fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin };
      if (op === 'GetParents') return { body: [] };
      if (op === 'GetSignInSecurity') {
        return {
          body: { totpEnabled: enabled, recoveryCodesLeft: enabled ? 10 : 0, passkeys: [] },
        };
      }
      if (op === 'StartTotpEnrolment') {
        return { body: { secret: SECRET, otpauthUrl: `otpauth://totp/Keyward?secret=${SECRET}` } };
      }
      if (op === 'ConfirmTotpEnrolment') {
        confirmations += 1;
        if (confirmations === 1) {
          return serverError('unauthorized', { userMessage: "That code didn't work." }, 401);
        }
        enabled = true;
        return { body: { recoveryCodes: CODES } };
      }
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeVisible();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');

    await user.type(screen.getByLabelText('Code from the app'), '111111');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText("That code didn't work.")).toBeVisible();

    await user.type(screen.getByLabelText('Code from the app'), '222222');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('link', { name: 'Download codes' })).toHaveAttribute(
      'href',
      expect.stringContaining(encodeURIComponent(CODES[0]!)),
    );
    expect(calls.filter((c) => c.op === 'ConfirmTotpEnrolment').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '222222' },
    ]);

    await user.click(screen.getByRole('button', { name: 'I saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(await screen.findByText('On. 10 recovery codes left.')).toBeVisible();
  });

  test('passkeys: add one with a name, then remove it after confirming', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const attestation = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };
    ceremony.startRegistration.mockResolvedValue(attestation);
    const PASSKEY_ID = '66666666-6666-4666-8666-666666666666';
    let passkeys: { id: string; name: string; createdAt: string }[] = [];
    const calls = fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin };
      if (op === 'GetParents') return { body: [] };
      if (op === 'GetSignInSecurity') {
        return { body: { totpEnabled: false, recoveryCodesLeft: 0, passkeys } };
      }
      if (op === 'StartPasskeyRegistration') {
        return {
          body: { options: { challenge: 'abc', rp: { id: 'example.com', name: 'Keyward' } } },
        };
      }
      if (op === 'FinishPasskeyRegistration') {
        passkeys = [{ id: PASSKEY_ID, name: 'MacBook', createdAt: '2025-01-15T12:00:00.000Z' }];
        return { body: { passkeyId: PASSKEY_ID } };
      }
      if (op === 'RemovePasskey') {
        passkeys = [];
        return { body: { success: true } };
      }
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    expect(await screen.findByText('No passkeys yet.')).toBeVisible();
    await user.type(screen.getByLabelText(/Passkey name/), 'MacBook');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(
      await screen.findByText('Passkey "MacBook" added. You can use it to sign in.'),
    ).toBeVisible();
    expect(ceremony.startRegistration).toHaveBeenCalledWith({
      optionsJSON: {
        challenge: 'abc',
        rp: { id: window.location.hostname, name: 'Keyward' },
      },
    });
    expect(calls.find((c) => c.op === 'FinishPasskeyRegistration')?.body).toEqual({
      response: attestation,
      name: 'MacBook',
    });

    await user.click(await screen.findByRole('button', { name: 'Remove passkey MacBook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey "MacBook" removed.')).toBeVisible();
    expect(calls.find((c) => c.op === 'RemovePasskey')?.body).toEqual({ id: PASSKEY_ID });
    expect(await screen.findByText('No passkeys yet.')).toBeVisible();
  });

  test('the first passkey comes with recovery codes, shown once', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    ceremony.startRegistration.mockResolvedValue({ id: 'cred-1', type: 'public-key' });
    const PASSKEY_ID = '66666666-6666-4666-8666-666666666666';
    let security = { totpEnabled: false, recoveryCodesLeft: 0, passkeys: [] as unknown[] };
    fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin };
      if (op === 'GetParents') return { body: [] };
      if (op === 'GetSignInSecurity') return { body: security };
      if (op === 'StartPasskeyRegistration') {
        return { body: { options: { challenge: 'abc', rp: { id: 'example.com', name: 'K' } } } };
      }
      if (op === 'FinishPasskeyRegistration') {
        security = {
          totpEnabled: false,
          recoveryCodesLeft: 10,
          passkeys: [{ id: PASSKEY_ID, name: 'Passkey 1', createdAt: '2025-01-15T12:00:00.000Z' }],
        };
        return { body: { passkeyId: PASSKEY_ID, recoveryCodes: CODES } };
      }
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/if you lose your passkey/)).toBeVisible();
    expect(await screen.findByText('10 recovery codes left.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'I saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(
      await screen.findByText('Two-step sign-in is on. Keep your recovery codes somewhere safe.'),
    ).toBeVisible();
  });

  test("Download my data is the owner's: a co-parent reads why, and nothing is asked", async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetAdmin') return { body: { ...admin, role: 'coParent' } };
      if (op === 'GetParents') return { body: [] };
      if (op === 'GetSignInSecurity') {
        return { body: { totpEnabled: false, recoveryCodesLeft: 0, passkeys: [] } };
      }
      return { body: {} };
    });
    renderApp('/settings');
    expect(
      await screen.findByText("Only the account owner can download a copy of the family's data."),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Prepare my data' })).toBeNull();
    expect(calls.some((call) => call.op === 'RequestDataExport')).toBe(false);
  });

  test('Download my data: prepares, shows progress, then the download link', async () => {
    let polls = 0;
    fakeServer((op) => {
      if (op === 'GetAdmin') return { body: admin };
      if (op === 'GetParents') return { body: [] };
      if (op === 'GetSignInSecurity') {
        return { body: { totpEnabled: false, recoveryCodesLeft: 0, passkeys: [] } };
      }
      if (op === 'RequestDataExport') return { body: { exportId: EXPORT_ID } };
      if (op === 'GetDataExport') {
        polls += 1;
        return polls === 1
          ? { body: { status: 'building', progress: 40 } }
          : {
              body: {
                status: 'ready',
                progress: 100,
                url: `http://localhost/data-export/${EXPORT_ID}?expires=1&signature=ab`,
              },
            };
      }
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Prepare my data' }));
    expect(await screen.findByText('Preparing your data… 40%')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Preparing your data' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    const link = await screen.findByRole('link', { name: 'Download ZIP' });
    expect(link).toHaveAttribute('href', expect.stringContaining(`/data-export/${EXPORT_ID}`));
  });
});
