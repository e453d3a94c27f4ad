import { type FormEvent, useReducer } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ConfirmationModal } from '../../components/ui/ConfirmationModal';
import { QrCode } from '../../components/ui/QrCode';
import { Spinner } from '../../components/ui/Spinner';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage } from '../../lib/errors';
import { isPasskeySupported, registerPasskey } from '../../lib/passkeys';
import {
  useConfirmTotpEnrolment,
  useDisableTotp,
  useRemovePasskey,
  useSignInSecurity,
  useStartTotpEnrolment,
} from './sign-in-security-api';
import {
  groupedSecret,
  initialSignInSecurityState,
  recoveryCodesFileText,
  signInSecurityReducer,
} from './sign-in-security';

const APP_NAME = 'Keyward';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** Settings → Sign-in security (issue 12): authenticator app and passkeys of the person signed in. */
export function SignInSecuritySection({ email }: { email: string }) {
  const security = useSignInSecurity();
  const [state, dispatch] = useReducer(signInSecurityReducer, initialSignInSecurityState);
  const start = useStartTotpEnrolment();
  const confirm = useConfirmTotpEnrolment();
  const disable = useDisableTotp();
  const remove = useRemovePasskey();
  const queryClient = useQueryClient();
  const { totp } = state;
  // a partial answer (an older server) shows no passkeys rather than failing the page
  const passkeys = security.data?.passkeys ?? [];
  const fail = (error: Parameters<typeof errorMessage>[0]) =>
    dispatch({ type: 'requestFailed', message: errorMessage(error) });

  function onEnable() {
    dispatch({ type: 'enableClicked' });
    start.mutate(undefined, {
      onSuccess: (value) => dispatch({ type: 'enrolmentStarted', ...value }),
      onError: fail,
    });
  }

  function onConfirm(event: FormEvent) {
    event.preventDefault();
    if (totp.phase !== 'scanning') return;
    const next = signInSecurityReducer(state, { type: 'confirmSubmitted' });
    dispatch({ type: 'confirmSubmitted' });
    if (next.totp.phase !== 'scanning' || !next.totp.isConfirming) return;
    confirm.mutate(
      { code: totp.code.replace(/\s/g, '') },
      {
        onSuccess: ({ recoveryCodes }) => dispatch({ type: 'confirmSucceeded', recoveryCodes }),
        onError: fail,
      },
    );
  }

  function onDisable(event: FormEvent) {
    event.preventDefault();
    if (totp.phase !== 'disabling') return;
    const next = signInSecurityReducer(state, { type: 'disableSubmitted' });
    dispatch({ type: 'disableSubmitted' });
    if (next.totp.phase !== 'disabling' || !next.totp.isDisabling) return;
    disable.mutate(
      { code: totp.code.trim() },
      { onSuccess: () => dispatch({ type: 'disableSucceeded' }), onError: fail },
    );
  }

  async function onAddPasskey(event: FormEvent) {
    event.preventDefault();
    dispatch({ type: 'passkeyAddStarted' });
    const result = await registerPasskey(state.passkeyName);
    if (result.type === 'error') return fail(result.error);
    const name = state.passkeyName.trim();
    await queryClient.invalidateQueries({ queryKey: ['dashboard', 'GetSignInSecurity'] });
    dispatch({
      type: 'passkeyAdded',
      name: name || 'Passkey',
      recoveryCodes: result.value.recoveryCodes,
    });
  }

  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Sign-in security</h2>
      <p className="mt-1 text-sm text-slate-600">
        Ask for a second step after your password or login link: a code from an authenticator app,
        or a passkey on this device.
      </p>
      <div className="mt-4 space-y-3" aria-live="polite">
        {state.notice && (
          <p role="status" className="rounded-lg bg-green-50 p-3 text-sm text-green-800">
            {state.notice}
          </p>
        )}
        {state.error && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {state.error}
          </p>
        )}
      </div>
      {security.isPending ? (
        <Spinner className="mt-4 h-6 w-6" label="Loading sign-in security..." />
      ) : security.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-800">
          {errorMessage(security.error)}
        </p>
      ) : (
        <>
          <section className="mt-4 border-t border-slate-100 pt-4" aria-labelledby="totp-heading">
            <h3 id="totp-heading" className="text-base font-semibold text-slate-900">
              Authenticator app
            </h3>
            {totp.phase === 'idle' || totp.phase === 'starting' ? (
              security.data.totpEnabled ? (
                <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <p className="text-sm text-slate-600">
                    On. {security.data.recoveryCodesLeft} recovery codes left.
                  </p>
                  <Button
                    variant="dangerSecondary"
                    onClick={() => dispatch({ type: 'disableClicked' })}
                  >
                    Turn off
                  </Button>
                </div>
              ) : (
                <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <p className="text-sm text-slate-600">Off.</p>
                  <Button onClick={onEnable} isLoading={totp.phase === 'starting'}>
                    Set up authenticator app
                  </Button>
                </div>
              )
            ) : null}
            {totp.phase === 'scanning' && (
              <form onSubmit={onConfirm} noValidate className="mt-3 space-y-4">
                <p className="text-sm text-slate-600">
                  Scan this QR code with your authenticator app (such as Google Authenticator,
                  1Password or Authy), then enter the 6-digit code it shows.
                </p>
                <QrCode value={totp.otpauthUrl} label="QR code for your authenticator app" />
                <p className="text-sm text-slate-600">
                  Can't scan it? Enter this key in the app:{' '}
                  <code data-testid="totp-secret" className="font-mono text-slate-900 break-all">
                    {groupedSecret(totp.secret)}
                  </code>
                </p>
                <TextInput
                  label="Code from the app"
                  name="one-time-code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  value={totp.code}
                  onChange={(code) => dispatch({ type: 'codeChanged', code })}
                  error={totp.codeError}
                />
                <div className="flex gap-3">
                  <Button type="submit" isLoading={totp.isConfirming}>
                    Turn on
                  </Button>
                  <Button variant="secondary" onClick={() => dispatch({ type: 'cancelled' })}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
            {totp.phase === 'showingCodes' && (
              <RecoveryCodes
                email={email}
                codes={totp.codes}
                isCopied={totp.isCopied}
                lost="your phone"
                onCopied={() => dispatch({ type: 'codesCopied' })}
                onSaved={() => dispatch({ type: 'codesSaved' })}
              />
            )}
            {totp.phase === 'disabling' && (
              <form onSubmit={onDisable} noValidate className="mt-3 space-y-4">
                <TextInput
                  label="Code from your authenticator app, or a recovery code"
                  name="one-time-code"
                  autoComplete="one-time-code"
                  value={totp.code}
                  onChange={(code) => dispatch({ type: 'codeChanged', code })}
                  error={totp.codeError}
                />
                <div className="flex gap-3">
                  <Button type="submit" variant="danger" isLoading={totp.isDisabling}>
                    Turn off authenticator app
                  </Button>
                  <Button variant="secondary" onClick={() => dispatch({ type: 'cancelled' })}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
          </section>
          <section
            className="mt-6 border-t border-slate-100 pt-4"
            aria-labelledby="passkeys-heading"
          >
            <h3 id="passkeys-heading" className="text-base font-semibold text-slate-900">
              Passkeys
            </h3>
            {state.passkeyCodes && (
              <RecoveryCodes
                email={email}
                codes={state.passkeyCodes.codes}
                isCopied={state.passkeyCodes.isCopied}
                lost="your passkey"
                onCopied={() => dispatch({ type: 'passkeyCodesCopied' })}
                onSaved={() => dispatch({ type: 'passkeyCodesSaved' })}
              />
            )}
            {passkeys.length > 0 && !security.data.totpEnabled && (
              <p className="mt-2 text-sm text-slate-600">
                {security.data.recoveryCodesLeft} recovery codes left.
              </p>
            )}
            {passkeys.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No passkeys yet.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100">
                {passkeys.map((passkey) => (
                  <li key={passkey.id} className="flex items-center justify-between gap-3 py-2">
                    <div className="text-sm">
                      <p className="font-medium text-slate-900">{passkey.name}</p>
                      <p className="text-slate-500">
                        Added {dateFormat.format(new Date(passkey.createdAt))}
                        {passkey.lastUsedAt &&
                          `, last used ${dateFormat.format(new Date(passkey.lastUsedAt))}`}
                      </p>
                    </div>
                    <Button
                      variant="dangerGhost"
                      size="sm"
                      aria-label={`Remove passkey ${passkey.name}`}
                      onClick={() =>
                        dispatch({ type: 'removeRequested', id: passkey.id, name: passkey.name })
                      }
                    >
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {isPasskeySupported() ? (
              <form
                onSubmit={onAddPasskey}
                className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
              >
                <TextInput
                  className="flex-1"
                  label="Passkey name"
                  isOptional
                  placeholder="e.g. My MacBook"
                  value={state.passkeyName}
                  onChange={(name) => dispatch({ type: 'passkeyNameChanged', name })}
                />
                <Button type="submit" variant="secondary" isLoading={state.isAddingPasskey}>
                  Add a passkey
                </Button>
              </form>
            ) : (
              <p className="mt-2 text-sm text-slate-600">This browser cannot use passkeys.</p>
            )}
          </section>
        </>
      )}
      <ConfirmationModal
        isOpen={state.confirmingRemoval !== undefined}
        title="Remove passkey?"
        confirmLabel="Remove"
        confirmVariant="danger"
        isConfirming={remove.isPending}
        onCancel={() => dispatch({ type: 'removeCancelled' })}
        onConfirm={() => {
          if (!state.confirmingRemoval) return;
          remove.mutate(
            { id: state.confirmingRemoval.id },
            { onSuccess: () => dispatch({ type: 'removeSucceeded' }), onError: fail },
          );
        }}
      >
        The passkey "{state.confirmingRemoval?.name}" will no longer sign you in.
      </ConfirmationModal>
    </Card>
  );
}

/** Recovery codes shown once, with copy and download, until the person says they saved them. */
function RecoveryCodes({
  email,
  codes,
  isCopied,
  lost,
  onCopied,
  onSaved,
}: {
  email: string;
  codes: string[];
  isCopied: boolean;
  /** what the codes stand in for: "your phone", "your passkey" */
  lost: string;
  onCopied: () => void;
  onSaved: () => void;
}) {
  const downloadUrl = `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesFileText(APP_NAME, email, codes))}`;
  return (
    <div className="mt-3 space-y-4">
      <p className="text-sm font-medium text-slate-900">
        Save these recovery codes now. Each one signs you in once if you lose {lost}; they will not
        be shown again.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).then(onCopied)}
        >
          {isCopied ? 'Copied' : 'Copy codes'}
        </Button>
        <a
          href={downloadUrl}
          download={`${APP_NAME.toLowerCase()}-recovery-codes.txt`}
          className="inline-flex items-center rounded-lg px-4 py-2 text-sm font-semibold text-violet-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
        >
          Download codes
        </a>
        <Button onClick={onSaved}>I saved my codes</Button>
      </div>
    </div>
  );
}
