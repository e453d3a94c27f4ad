import { MIN_PASSWORD_LENGTH, resetPasswordProblem } from '@keyward/domain/passwords';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { useResetPassword } from './api';
import { Alert, AuthLayout, linkClasses } from './AuthLayout';

export const RESET_TOKEN_EXPIRED =
  'Token expired or not found. Please request a new password reset link.';

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ message: string; isExpired: boolean } | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = resetPasswordProblem(password);
    setPasswordError(problem ?? undefined);
    setFailure(null);
    if (problem) return;
    const result = await reset.run({ token, password });
    if (result.type === 'error') {
      const message = result.error.userMessage ?? 'Hmm, something went wrong.';
      return setFailure({ message, isExpired: false });
    }
    if (!result.value.success) return setFailure({ message: RESET_TOKEN_EXPIRED, isExpired: true });
    navigate('/login?reset=1', { replace: true });
  }

  return (
    <AuthLayout
      title="Set a new password"
      footer={
        <Link to="/login" className={linkClasses}>
          Back to login
        </Link>
      }
    >
      {failure && (
        <div className="mb-4">
          <Alert tone="error">
            {failure.message}
            {failure.isExpired && (
              <>
                {' '}
                <Link to="/reset-password" className={linkClasses}>
                  Request a new link
                </Link>
              </>
            )}
          </Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextInput
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH + 1}
          value={password}
          onChange={setPassword}
          error={passwordError}
          hint={`More than ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <Button type="submit" fullWidth size="lg" isLoading={reset.isOngoing}>
          Change password
        </Button>
      </form>
    </AuthLayout>
  );
}
