import { MIN_PASSWORD_LENGTH, signupPasswordProblem } from '@keyward/domain/passwords';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { useSession } from '../../lib/session-context';
import { useAcceptParentInvite } from './api';
import { Alert, AuthLayout, linkClasses } from './AuthLayout';

// Issue 12: the emailed invitation. The invitee chooses a password and is signed in to the family
// that invited them; a link that no longer works says so and offers the login page.
export default function ParentInvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { logIn } = useSession();
  const accept = useAcceptParentInvite();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = signupPasswordProblem(password);
    setPasswordError(problem ?? undefined);
    setFailure(null);
    if (problem) return;
    const result = await accept.run({ token, password });
    if (result.type === 'error') {
      return setFailure(result.error.userMessage ?? 'Hmm, something went wrong.');
    }
    logIn({ adminId: result.value.adminId, token: result.value.token });
    navigate('/', { replace: true });
  }

  return (
    <AuthLayout
      title="Join your family on Keyward"
      subtitle="You were invited to help manage a family. Choose a password to accept."
      footer={
        <span>
          Already accepted?{' '}
          <Link to="/login" className={linkClasses}>
            Log in with a password or a login link
          </Link>
        </span>
      }
    >
      {failure && (
        <div className="mb-4">
          <Alert tone="error">{failure}</Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextInput
          label="Choose a password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={setPassword}
          error={passwordError}
        />
        <Button type="submit" fullWidth size="lg" isLoading={accept.isOngoing}>
          Accept the invitation
        </Button>
      </form>
    </AuthLayout>
  );
}
