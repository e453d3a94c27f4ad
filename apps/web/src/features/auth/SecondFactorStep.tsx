import { type FormEvent, useEffect, useReducer, useRef } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage } from '../../lib/errors';
import { isPasskeySupported, signInWithPasskey } from '../../lib/passkeys';
import { Alert, linkClasses } from './AuthLayout';
import { useLoginSecondFactor } from './second-factor-api';
import {
  initialSecondFactorState,
  type SecondFactorMethod,
  type Session,
  secondFactorReducer,
} from './second-factor';

/** The dashboard tag of an expired or spent sign-in challenge (server: accounts/second-factor.ts). */
export const CHALLENGE_EXPIRED_TAG = 'secondFactorChallengeExpired';

/**
 * The second step of signing in (issue 12): a code from the authenticator app, a recovery code,
 * or a passkey. `onSignedIn` receives the session.
 */
export function SecondFactorStep({
  challenge,
  methods,
  onSignedIn,
}: {
  challenge: string;
  methods: SecondFactorMethod[];
  onSignedIn: (session: Session) => void;
}) {
  const [state, dispatch] = useReducer(
    secondFactorReducer,
    initialSecondFactorState(challenge, methods),
  );
  const verify = useLoginSecondFactor();
  const codeField = useRef<HTMLInputElement>(null);
  const hasTotp = methods.includes('totp');
  const hasPasskey = methods.includes('passkey') && isPasskeySupported();
  const isRecovery = state.codeKind === 'recovery';
  // a passkey-only person who lost it signs in with a recovery code
  const showsCodeForm = hasTotp || isRecovery;

  useEffect(() => {
    if (showsCodeForm) codeField.current?.focus();
  }, [showsCodeForm]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    dispatch({ type: 'submitted' });
    const next = secondFactorReducer(state, { type: 'submitted' });
    if (!next.isSubmitting) return;
    const result = await verify.run({ challenge, code: state.code.trim() });
    if (result.type === 'error') {
      return dispatch({
        type: 'failed',
        message: errorMessage(result.error),
        isExpired: result.error.tag === CHALLENGE_EXPIRED_TAG,
      });
    }
    onSignedIn(result.value);
  }

  async function onPasskey() {
    dispatch({ type: 'passkeyStarted' });
    const result = await signInWithPasskey(challenge);
    if (result.type === 'error') {
      return dispatch({ type: 'failed', message: errorMessage(result.error) });
    }
    onSignedIn(result.value);
  }

  if (state.isExpired) {
    return (
      <div className="space-y-4">
        <Alert tone="error">{state.serverError}</Alert>
        <Link to="/login" reloadDocument className={linkClasses}>
          Sign in again
        </Link>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Your account has two-step sign-in.{' '}
        {isRecovery
          ? 'Enter one of the recovery codes you saved when you set it up.'
          : hasTotp
            ? 'Enter the 6-digit code from your authenticator app.'
            : 'Use your passkey to finish signing in.'}
      </p>
      {state.serverError && <Alert tone="error">{state.serverError}</Alert>}
      {showsCodeForm && (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <TextInput
            ref={codeField}
            label={isRecovery ? 'Recovery code' : 'Authentication code'}
            name="one-time-code"
            autoComplete="one-time-code"
            inputMode={isRecovery ? 'text' : 'numeric'}
            value={state.code}
            onChange={(code) => dispatch({ type: 'codeChanged', code })}
            error={state.codeError}
          />
          <Button type="submit" fullWidth size="lg" isLoading={verify.isOngoing}>
            Verify
          </Button>
          {hasTotp && (
            <button
              type="button"
              className={`text-sm ${linkClasses}`}
              onClick={() => dispatch({ type: 'codeKindToggled' })}
            >
              {isRecovery ? 'Use a code from my authenticator app' : 'Use a recovery code instead'}
            </button>
          )}
        </form>
      )}
      {hasPasskey && (
        <Button
          variant={showsCodeForm ? 'secondary' : 'primary'}
          fullWidth
          size="lg"
          isLoading={state.isSubmitting && !verify.isOngoing}
          onClick={onPasskey}
        >
          Use my passkey
        </Button>
      )}
      {!showsCodeForm && (
        <button
          type="button"
          className={`text-sm ${linkClasses}`}
          onClick={() => dispatch({ type: 'codeKindToggled' })}
        >
          Lost your passkey? Use a recovery code
        </button>
      )}
    </div>
  );
}
