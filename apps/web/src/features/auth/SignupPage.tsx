import type { PqlError } from '@keyward/contract/errors';
import { INVALID_EMAIL_MESSAGE, isAcceptableEmail } from '@keyward/domain/email';
import { MIN_PASSWORD_LENGTH, signupPasswordProblem } from '@keyward/domain/passwords';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { EmailInput } from './EmailInput';
import { useSession } from '../../lib/session-context';
import { useSignup } from './api';
import { Alert, AuthLayout, linkClasses } from './AuthLayout';

export const SIGNUP_REDIRECT_DELAY_MS = 7500;
export const SIGNUP_FAILED_MESSAGE = 'Shucks! Something went wrong, please try again.';

/** The server's email rule, checked first so a typo is a field message, not a failed signup. */
function signupEmailProblem(email: string): string | undefined {
  if (email.trim() === '') return 'Email is required.';
  return isAcceptableEmail(email) ? undefined : INVALID_EMAIL_MESSAGE;
}

export default function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { logIn } = useSession();
  const signup = useSignup();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [serverError, setServerError] = useState<PqlError | null>(null);
  const [isEmailSent, setIsEmailSent] = useState(false);

  useEffect(() => {
    if (!isEmailSent) return;
    const timer = setTimeout(() => navigate('/login'), SIGNUP_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isEmailSent, navigate]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = {
      email: signupEmailProblem(email),
      password: signupPasswordProblem(password) ?? undefined,
    };
    setFieldErrors(errors);
    setServerError(null);
    if (errors.email || errors.password) return;
    const result = await signup.run({
      email: email.trim(),
      password,
      gclid: params.get('gclid') ?? undefined,
    });
    if (result.type === 'error') return setServerError(result.error);
    const { admin } = result.value;
    if (!admin) return setIsEmailSent(true);
    logIn({ adminId: admin.adminId, token: admin.token });
    navigate('/use-case', { replace: true });
  }

  if (isEmailSent) {
    return (
      <AuthLayout title="Check your email">
        <Alert tone="success" title="Almost there!">
          We sent a verification link to {email.trim()}. Click it to finish creating your account.
        </Alert>
        <p className="mt-4 text-sm text-slate-500">
          Taking you to the{' '}
          <Link to="/login" className={linkClasses}>
            login page
          </Link>{' '}
          in a few seconds...
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Create your Keyward account."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className={linkClasses}>
            Log in
          </Link>
        </>
      }
    >
      {serverError && (
        <div className="mb-4">
          <Alert tone="error">{serverError.userMessage ?? SIGNUP_FAILED_MESSAGE}</Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <EmailInput value={email} onChange={setEmail} error={fieldErrors.email} />
        <TextInput
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
        />
        <Button type="submit" fullWidth size="lg" isLoading={signup.isOngoing}>
          Sign up
        </Button>
      </form>
    </AuthLayout>
  );
}
