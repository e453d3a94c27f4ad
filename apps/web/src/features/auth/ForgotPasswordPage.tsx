import { INVALID_EMAIL_MESSAGE, isAcceptableEmail } from '@keyward/domain/email';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button';
import { EmailInput } from './EmailInput';
import { useSendPasswordResetEmail } from './api';
import { Alert, AuthLayout, linkClasses } from './AuthLayout';

export default function ForgotPasswordPage() {
  const sendEmail = useSendPasswordResetEmail();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!isAcceptableEmail(address)) {
      setEmailError(INVALID_EMAIL_MESSAGE);
      return;
    }
    setEmailError(undefined);
    sendEmail.run({ email: address });
  }

  const footer = (
    <Link to="/login" className={linkClasses}>
      Back to login
    </Link>
  );

  if (sendEmail.state.status === 'succeeded') {
    return (
      <AuthLayout title="Check your email" footer={footer}>
        <Alert tone="success">
          If an account exists for {email.trim()}, we sent it a link to reset the password. The link
          works for a limited time.
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your email and we'll send you a link to set a new one."
      footer={footer}
    >
      {sendEmail.state.status === 'failed' && (
        <div className="mb-4">
          <Alert tone="error" title="Uh-oh!">
            Looks like something went wrong on our end. Please try again.
          </Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <EmailInput value={email} onChange={setEmail} error={emailError} />
        <Button type="submit" fullWidth size="lg" isLoading={sendEmail.isOngoing}>
          Send reset link
        </Button>
      </form>
    </AuthLayout>
  );
}
