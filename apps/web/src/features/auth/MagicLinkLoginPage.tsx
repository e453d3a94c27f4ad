import type { PqlError } from '@keyward/contract/errors';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { DASHBOARD_TAGS } from '@keyward/contract/constants';
import { errorMessage } from '../../lib/errors';
import { safeRedirectPath } from '../../lib/redirect';
import { useSession } from '../../lib/session-context';
import { loginWithMagicLinkOnce } from './api';
import { AuthLayout, linkClasses } from './AuthLayout';
import { SecondFactorStep } from './SecondFactorStep';
import { type SecondFactorMethod, splitSignInAnswer } from './second-factor';

export const MAGIC_LINK_NOT_FOUND = 'Magic Link token not found, or expired. Please try again.';

export default function MagicLinkLoginPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const navigate = useNavigate();
  const { logIn } = useSession();
  const [error, setError] = useState<PqlError | null>(null);
  const [secondStep, setSecondStep] = useState<{
    challenge: string;
    methods: SecondFactorMethod[];
  } | null>(null);

  useEffect(() => {
    let isActive = true;
    loginWithMagicLinkOnce(token).then((result) => {
      if (!isActive) return;
      if (result.type === 'error') return setError(result.error);
      const answer = splitSignInAnswer(result.value);
      // issue 12: a second factor is asked for before the session
      if ('challenge' in answer) return setSecondStep(answer);
      logIn(answer.session);
      navigate(safeRedirectPath(redirect), { replace: true });
    });
    return () => {
      isActive = false;
    };
  }, [token, redirect, logIn, navigate]);

  if (secondStep) {
    return (
      <AuthLayout title="Two-step sign-in">
        <SecondFactorStep
          challenge={secondStep.challenge}
          methods={secondStep.methods}
          onSignedIn={(session) => {
            logIn(session);
            navigate(safeRedirectPath(redirect), { replace: true });
          }}
        />
      </AuthLayout>
    );
  }
  if (!error) return <FullPageStatus isStandalone status="loading" title="Logging you in..." />;
  const message =
    error.tag === DASHBOARD_TAGS.magicLinkTokenNotFound
      ? MAGIC_LINK_NOT_FOUND
      : errorMessage(error);
  return (
    <FullPageStatus isStandalone status="failure" message={message}>
      <Link to="/login" className={linkClasses}>
        Back to login
      </Link>
    </FullPageStatus>
  );
}
