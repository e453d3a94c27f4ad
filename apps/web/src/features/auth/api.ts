import { callDashboard } from '../../lib/api/client';
import { useDashboardCall } from '../../lib/api/useDashboardCall';
import { runOnce } from '../../lib/one-shot';

// One hook per operation; pages never build requests by hand.
// Public pages use the light useDashboardCall (no react-query on the /login page);
// the authenticated /use-case page has its hook in use-case-api.ts.
export const useLogin = () => useDashboardCall('Login');
export const useRequestMagicLink = () => useDashboardCall('RequestMagicLink');
export const useSignup = () => useDashboardCall('Signup');
export const useSendPasswordResetEmail = () => useDashboardCall('SendPasswordResetEmail');
export const useResetPassword = () => useDashboardCall('ResetPassword');
export const useSaveConferenceEmail = () => useDashboardCall('SaveConferenceEmail');

// Single-use tokens: sent once per token, even when StrictMode runs the effect twice.
export const loginWithMagicLinkOnce = (token: string) =>
  runOnce(`LoginMagicLink:${token}`, () => callDashboard('LoginMagicLink', { token }));
export const verifySignupEmailOnce = (token: string) =>
  runOnce(`VerifySignupEmail:${token}`, () => callDashboard('VerifySignupEmail', { token }));
// Issue 12: a co-parent accepts an invitation from the emailed /parent-invite/{token} link.
export const useAcceptParentInvite = () => useDashboardCall('AcceptParentInvite');
