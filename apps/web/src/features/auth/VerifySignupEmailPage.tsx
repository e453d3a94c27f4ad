import type { PqlError } from '@keyward/contract/errors';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { DASHBOARD_TAGS } from '@keyward/contract/constants';
import { useSession } from '../../lib/session-context';
import { verifySignupEmailOnce } from './api';
import { linkClasses } from './AuthLayout';

export default function VerifySignupEmailPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { logIn } = useSession();
  const [error, setError] = useState<PqlError | null>(null);

  useEffect(() => {
    let isActive = true;
    verifySignupEmailOnce(token).then((result) => {
      if (!isActive) return;
      if (result.type === 'error') return setError(result.error);
      logIn(result.value);
      // the use-case survey is the next onboarding step
      navigate('/use-case', { replace: true });
    });
    return () => {
      isActive = false;
    };
  }, [token, logIn, navigate]);

  if (!error) {
    return <FullPageStatus isStandalone status="loading" title="Verifying your email address..." />;
  }

  if (error.tag === DASHBOARD_TAGS.emailAlreadyVerified) {
    return (
      <FullPageStatus
        isStandalone
        status="success"
        title="Your email address has already been verified."
      >
        <Link to="/login" className={linkClasses}>
          Log in
        </Link>
      </FullPageStatus>
    );
  }
  // A used, expired or mistyped link: say what to do next.
  return (
    <FullPageStatus
      isStandalone
      status="failure"
      message={error.userMessage ?? 'Failed to verify email address.'}
    >
      <p>
        Already verified? Log in. Otherwise the link may have expired: sign up again to get a new
        one.
      </p>
      <p className="mt-4 flex justify-center gap-6">
        <Link to="/login" className={linkClasses}>
          Log in
        </Link>
        <Link to="/signup" className={linkClasses}>
          Sign up again
        </Link>
      </p>
    </FullPageStatus>
  );
}
