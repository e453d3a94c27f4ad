import type { PqlError } from '@keyward/contract/errors';
import { INVALID_EMAIL_MESSAGE, isAcceptableEmail, looksLikeEmail } from '@keyward/domain/email';
import { MIN_PASSWORD_LENGTH } from '@keyward/domain/passwords';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { EmailInput } from './EmailInput';
import { errorMessage } from '../../lib/errors';
import { safeRedirectPath } from '../../lib/redirect';
import { useSession } from '../../lib/session-context';
import { signInWithPasskey, usePasskeySupport } from '../../lib/passkeys';
import { useLogin, useRequestMagicLink } from './api';
import { Alert, AuthLayout, linkClasses } from './AuthLayout';
import { SecondFactorStep } from './SecondFactorStep';
import { type SecondFactorMethod, type Session, splitSignInAnswer } from './second-factor';

export const PASSWORD_CHANGED_BANNER =
  'Password successfully changed! Please log in with your new password.';

type FieldErrors = { email?: string; password?: string };

export function loginFieldErrors(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (email.trim() === '') errors.email = 'Email is required.';
  if (password === '') errors.password = 'Password is required.';
  else if (password.length < MIN_PASSWORD_LENGTH) {
    errors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  return errors;
}

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { session, logIn } = useSession();
  const login = useLogin();
  const magicLink = useRequestMagicLink();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<PqlError | null>(null);
  const [isMagicLinkSent, setIsMagicLinkSent] = useState(false);
  // issue 12: the second step, when the account has a second factor
  const [secondStep, setSecondStep] = useState<{
    challenge: string;
    methods: SecondFactorMethod[];
  } | null>(null);
  const [isPasskeyOngoing, setIsPasskeyOngoing] = useState(false);
  const isPasskeySupported = usePasskeySupport();

  const redirect = params.get('redirect');
  const isAfterReset = params.has('reset');

  const emailField = useRef<HTMLInputElement>(null);
  useEffect(() => emailField.current?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = loginFieldErrors(email, password);
    setFieldErrors(errors);
    setServerError(null);
    if (errors.email || errors.password) return;
    const result = await login.run({ email: email.trim(), password });
    if (result.type === 'error') return setServerError(result.error);
    const answer = splitSignInAnswer(result.value);
    if ('challenge' in answer) return setSecondStep(answer);
    signedIn(answer.session);
  }

  function signedIn(session: Session) {
    logIn({ adminId: session.adminId, token: session.token });
    navigate(safeRedirectPath(redirect), { replace: true });
  }

  async function onPasskey() {
    setServerError(null);
    setIsPasskeyOngoing(true);
    const result = await signInWithPasskey();
    setIsPasskeyOngoing(false);
    if (result.type === 'error') return setServerError(result.error);
    signedIn(result.value);
  }

  async function onSendMagicLink() {
    setServerError(null);
    setIsMagicLinkSent(false);
    // the server's rule: 'x@y' is a field message, not a failed request
    if (!isAcceptableEmail(email)) return setFieldErrors({ email: INVALID_EMAIL_MESSAGE });
    setFieldErrors({});
    const result = await magicLink.run({ email: email.trim(), redirect: redirect ?? undefined });
    if (result.type === 'error') return setServerError(result.error);
    setIsMagicLinkSent(true);
  }

  // Already signed in (a bookmark, the back button): no second login.
  if (session) return <Navigate to={safeRedirectPath(redirect)} replace />;

  if (secondStep) {
    return (
      <AuthLayout title="Two-step sign-in">
        <SecondFactorStep
          challenge={secondStep.challenge}
          methods={secondStep.methods}
          onSignedIn={signedIn}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Parent Login"
      footer={
        <>
          Don't have an account?{' '}
          <Link to="/signup" className={linkClasses}>
            Sign up
          </Link>
        </>
      }
    >
      <div className="space-y-4">
        {isAfterReset && <Alert tone="success">{PASSWORD_CHANGED_BANNER}</Alert>}
        {isMagicLinkSent && (
          <Alert tone="success" title="Check your email">
            We sent a magic link to {email.trim()}. Click it to log in.
          </Alert>
        )}
        {serverError && <Alert tone="error">{errorMessage(serverError)}</Alert>}
      </div>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <EmailInput ref={emailField} value={email} onChange={setEmail} error={fieldErrors.email} />
        <TextInput
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
        />
        <div className="flex justify-end">
          <Link to="/reset-password" className={`text-sm ${linkClasses}`}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" fullWidth size="lg" isLoading={login.isOngoing}>
          Log in
        </Button>
      </form>
      <div className="my-6 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" /> or{' '}
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button
        variant="secondary"
        fullWidth
        size="lg"
        disabled={!looksLikeEmail(email)}
        isLoading={magicLink.isOngoing}
        onClick={onSendMagicLink}
      >
        Send Magic Link
      </Button>
      <p className="mt-2 text-center text-xs text-slate-500">
        We'll email you a link that logs you in without a password.
      </p>
      {isPasskeySupported && (
        <Button
          variant="ghost"
          fullWidth
          className="mt-4"
          isLoading={isPasskeyOngoing}
          onClick={onPasskey}
        >
          Sign in with a passkey
        </Button>
      )}
    </AuthLayout>
  );
}
