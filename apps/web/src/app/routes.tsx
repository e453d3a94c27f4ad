import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { RouteObject } from 'react-router';
import { PageSuspense } from './PageSuspense';
import { RequireSession } from './RequireSession';

// Every page is its own chunk: the /login page must stay small (100 KB of gzipped JS).
// App.tsx renders these with <BrowserRouter> + useRoutes: the data router (createBrowserRouter)
// alone would push /login over its budget (see README).
// biome-ignore lint/suspicious/noExplicitAny: page components take no props or route props
type Page = LazyExoticComponent<ComponentType<any>>;

function page(Component: Page, props: Record<string, unknown> = {}) {
  return (
    <PageSuspense>
      <Component {...props} />
    </PageSuspense>
  );
}

// Public pages
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const LogoutPage = lazy(() => import('../features/auth/LogoutPage'));
const SignupPage = lazy(() => import('../features/auth/SignupPage'));
const VerifySignupEmailPage = lazy(() => import('../features/auth/VerifySignupEmailPage'));
const MagicLinkLoginPage = lazy(() => import('../features/auth/MagicLinkLoginPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const ConferenceEmailPage = lazy(() => import('../features/auth/ConferenceEmailPage'));

// Authenticated pages
const DataProviders = lazy(() => import('./DataProviders'));
const UseCasePage = lazy(() => import('../features/auth/UseCasePage'));
const AuthenticatedLayout = lazy(() => import('./AuthenticatedLayout'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage'));
const ChildrenPage = lazy(() => import('../features/children/ChildrenPage'));
const NewChildPage = lazy(() => import('../features/children/NewChildPage'));
const ChildPage = lazy(() => import('../features/children/ChildPage'));
const ComputersPage = lazy(() => import('../features/computers/ComputersPage'));
const ComputerPage = lazy(() => import('../features/computers/ComputerPage'));
const KeychainsPage = lazy(() => import('../features/keychains/KeychainsPage'));
const KeychainPage = lazy(() => import('../features/keychains/KeychainPage'));
const UnlockRequestsPage = lazy(() => import('../features/unlock-requests/UnlockRequestsPage'));
const UnlockRequestPage = lazy(() => import('../features/unlock-requests/UnlockRequestPage'));
const SuspendFilterRequestPage = lazy(
  () => import('../features/suspension/SuspendFilterRequestPage'),
);
const NotFoundPage = lazy(() => import('./NotFoundPage'));

/** Pages inside the chrome (sidebar). ADD NEW FEATURE ROUTES HERE, each with a lazy import above. */
const chromeRoutes: RouteObject[] = [
  { index: true, element: page(DashboardPage) },
  { path: 'settings', element: page(SettingsPage) },
  { path: 'children', element: page(ChildrenPage) },
  { path: 'children/new', element: page(NewChildPage) },
  { path: 'children/:userId', element: page(ChildPage) },
  { path: 'unlock-requests', element: page(UnlockRequestsPage) },
  { path: 'children/:userId/unlock-requests', element: page(UnlockRequestsPage) },
  { path: 'children/:userId/unlock-requests/:requestId', element: page(UnlockRequestPage) },
  {
    path: 'children/:userId/unlock-requests/:requestId/review',
    element: page(UnlockRequestPage, { step: 'review' }),
  },
  {
    path: 'children/:userId/unlock-requests/:requestId/select-keychain',
    element: page(UnlockRequestPage, { step: 'select-keychain' }),
  },
  {
    path: 'children/:userId/unlock-requests/:requestId/edit-key/:keychainId',
    element: page(UnlockRequestPage, { step: 'edit-key' }),
  },
  {
    path: 'children/:userId/unlock-requests/:requestId/deny',
    element: page(UnlockRequestPage, { step: 'deny' }),
  },
  {
    path: 'children/:userId/suspend-filter-requests/:requestId',
    element: page(SuspendFilterRequestPage),
  },
  { path: 'computers', element: page(ComputersPage) },
  { path: 'computers/:computerId', element: page(ComputerPage) },
  { path: 'keychains', element: page(KeychainsPage) },
  { path: 'keychains/:keychainId', element: page(KeychainPage) },
  { path: '*', element: page(NotFoundPage) },
];

export const routes: RouteObject[] = [
  { path: '/login', element: page(LoginPage) },
  { path: '/logout', element: page(LogoutPage) },
  { path: '/signup', element: page(SignupPage) },
  { path: '/verify-signup-email/:token', element: page(VerifySignupEmailPage) },
  { path: '/otp/:token', element: page(MagicLinkLoginPage) },
  { path: '/reset-password', element: page(ForgotPasswordPage) },
  { path: '/reset-password/:token', element: page(ResetPasswordPage) },
  { path: '/conf-workshop', element: page(ConferenceEmailPage, { source: 'workshop' }) },
  { path: '/conf-booth', element: page(ConferenceEmailPage, { source: 'booth' }) },
  {
    element: <RequireSession />,
    children: [
      {
        element: page(DataProviders),
        children: [
          { path: '/use-case', element: page(UseCasePage) },
          { path: '/', element: page(AuthenticatedLayout), children: chromeRoutes },
        ],
      },
    ],
  },
];
