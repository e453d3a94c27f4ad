import type { PqlError } from '@keyward/contract/errors';
import { INVALID_EMAIL_MESSAGE, isAcceptableEmail } from '@keyward/domain/email';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { EmailInput } from './EmailInput';
import { errorMessage } from '../../lib/errors';
import { useSaveConferenceEmail } from './api';
import { Alert, AuthLayout } from './AuthLayout';

export type ConferenceSource = 'workshop' | 'booth';

export default function ConferenceEmailPage({ source }: { source: ConferenceSource }) {
  const save = useSaveConferenceEmail();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<PqlError | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!isAcceptableEmail(address)) {
      setEmailError(INVALID_EMAIL_MESSAGE);
      return;
    }
    setEmailError(undefined);
    setServerError(null);
    const result = await save.run({ email: address, source });
    if (result.type === 'error') setServerError(result.error);
  }

  if (save.state.status === 'succeeded') {
    return (
      <AuthLayout title="Thank you!">
        <Alert tone="success">
          We'll send more about Keyward to {email.trim()}. Enjoy the rest of the{' '}
          {source === 'workshop' ? 'workshop' : 'conference'}!
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={source === 'workshop' ? 'Thanks for joining the workshop!' : 'Thanks for stopping by!'}
      subtitle="Leave your email and we'll send you how to keep your kids safe online with Keyward."
    >
      {serverError && (
        <div className="mb-4">
          <Alert tone="error" title="Uh oh!">
            {errorMessage(serverError)}
          </Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <EmailInput value={email} onChange={setEmail} error={emailError} />
        <Button type="submit" fullWidth size="lg" isLoading={save.isOngoing}>
          Send me the info
        </Button>
      </form>
    </AuthLayout>
  );
}
