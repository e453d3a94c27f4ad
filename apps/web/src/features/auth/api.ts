import { callDashboard } from '../../lib/api/client';
import { useDashboardMutation } from '../../lib/api/hooks';
import { runOnce } from '../../lib/one-shot';

// One hook per operation; pages never build requests by hand.
export const useLogin = () => useDashboardMutation('Login');
export const useRequestMagicLink = () => useDashboardMutation('RequestMagicLink');
export const useSignup = () => useDashboardMutation('Signup');
export const useSendPasswordResetEmail = () => useDashboardMutation('SendPasswordResetEmail');
export const useResetPassword = () => useDashboardMutation('ResetPassword');
export const useSaveConferenceEmail = () => useDashboardMutation('SaveConferenceEmail');
export const useDeleteParentAccount = () => useDashboardMutation('DeleteEntity_v2');

// Single-use tokens: sent once per token, even when StrictMode runs the effect twice.
export const loginWithMagicLinkOnce = (token: string) =>
  runOnce(`LoginMagicLink:${token}`, () => callDashboard('LoginMagicLink', { token }));
export const verifySignupEmailOnce = (token: string) =>
  runOnce(`VerifySignupEmail:${token}`, () => callDashboard('VerifySignupEmail', { token }));
