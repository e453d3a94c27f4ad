import { type ComponentType, isValidElement, type ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import LoginPage from '../features/auth/LoginPage';
import { startEarlyCalls } from '../lib/api/early-fetch';
import { type LazyPage, lazyPage } from '../lib/lazy-page';
import { getSession } from '../lib/session';
import { PageSuspense } from './PageSuspense';
import { RequireSession } from './RequireSession';

// Every page is its own chunk, but /login, the first page of most visits, is in the entry (its
// form comes with the first script, issue 21): the entry must stay small (100 KB of gzipped JS).
// App.tsx renders these with <BrowserRouter> + useRoutes: the data router (createBrowserRouter)
// alone would push /login over its budget (see README).
// biome-ignore lint/suspicious/noExplicitAny: page components take no props or route props
type Page = LazyPage<ComponentType<any>> | ComponentType<any>;

// The page of each route element, for prepareFirstScreen below.
const pageOfElement = new WeakMap<ReactElement, Page>();

function page(Component: Page, props: Record<string, unknown> = {}) {
  const element = (
    <PageSuspense>
      <Component {...props} />
    </PageSuspense>
  );
  pageOfElement.set(element, Component);
  return element;
}

// Public pages
const LogoutPage = lazyPage(() => import('../features/auth/LogoutPage'));
const SignupPage = lazyPage(() => import('../features/auth/SignupPage'));
const VerifySignupEmailPage = lazyPage(() => import('../features/auth/VerifySignupEmailPage'));
const MagicLinkLoginPage = lazyPage(() => import('../features/auth/MagicLinkLoginPage'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage'));
const ConferenceEmailPage = lazyPage(() => import('../features/auth/ConferenceEmailPage'));
const ParentInvitePage = lazyPage(() => import('../features/auth/ParentInvitePage'));

// Authenticated pages
const DataProviders = lazyPage(() => import('./DataProviders'));
const UseCasePage = lazyPage(() => import('../features/auth/UseCasePage'));
const AuthenticatedLayout = lazyPage(() => import('./AuthenticatedLayout'));
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage'));
const InboxPage = lazyPage(() => import('../features/inbox/InboxPage'));
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'));
const ChildrenPage = lazyPage(() => import('../features/children/ChildrenPage'));
const NewChildPage = lazyPage(() => import('../features/children/NewChildPage'));
const ChildPage = lazyPage(() => import('../features/children/ChildPage'));
const DevicesPage = lazyPage(() => import('../features/devices/DevicesPage'));
const ComputerPage = lazyPage(() => import('../features/computers/ComputerPage'));
const KeychainsPage = lazyPage(() => import('../features/keychains/KeychainsPage'));
const KeychainPage = lazyPage(() => import('../features/keychains/KeychainPage'));
const UnlockRequestsPage = lazyPage(() => import('../features/unlock-requests/UnlockRequestsPage'));
const UnlockRequestPage = lazyPage(() => import('../features/unlock-requests/UnlockRequestPage'));
const SuspendFilterRequestPage = lazyPage(
  () => import('../features/suspension/SuspendFilterRequestPage'),
);
const ActivitySummariesPage = lazyPage(() => import('../features/activity/ActivitySummariesPage'));
const ActivityDayPage = lazyPage(() => import('../features/activity/ActivityDayPage'));
const IOSDevicePage = lazyPage(() => import('../features/ios-devices/IOSDevicePage'));
const CheckoutResultPage = lazyPage(() => import('../features/billing/CheckoutResultPage'));
const SecurityEventsPage = lazyPage(() => import('../features/security-events/SecurityEventsPage'));
const AuditLogPage = lazyPage(() => import('../features/audit-log/AuditLogPage'));
const NotFoundPage = lazyPage(() => import('./NotFoundPage'));

/** Pages inside the chrome (sidebar). ADD NEW FEATURE ROUTES HERE, each with a lazyPage import above. */
const chromeRoutes: RouteObject[] = [
  { index: true, element: page(DashboardPage) },
  { path: 'inbox', element: page(InboxPage) },
  { path: 'settings', element: page(SettingsPage) },
  { path: 'settings/audit-log', element: page(AuditLogPage) },
  { path: 'checkout-success', element: page(CheckoutResultPage, { outcome: 'success' }) },
  { path: 'checkout-cancel', element: page(CheckoutResultPage, { outcome: 'cancel' }) },
  { path: 'children', element: page(ChildrenPage) },
  { path: 'children/new', element: page(NewChildPage) },
  { path: 'children/:userId', element: page(ChildPage) },
  { path: 'children/activity', element: page(ActivitySummariesPage) },
  { path: 'children/activity/:urlDate', element: page(ActivityDayPage) },
  { path: 'children/:userId/activity', element: page(ActivitySummariesPage) },
  { path: 'children/:userId/activity/:urlDate', element: page(ActivityDayPage) },
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
  { path: 'computers', element: page(DevicesPage, { kind: 'mac' }) },
  { path: 'computers/:computerId', element: page(ComputerPage) },
  { path: 'keychains', element: page(KeychainsPage) },
  { path: 'keychains/:keychainId', element: page(KeychainPage) },
  { path: 'security-events', element: page(SecurityEventsPage) },
  { path: 'ios-devices', element: page(DevicesPage, { kind: 'ios' }) },
  { path: 'ios-devices/:deviceId', element: page(IOSDevicePage) },
  { path: '*', element: page(NotFoundPage) },
];

const sessionRoute: RouteObject = {
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
};

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
  { path: '/parent-invite/:token', element: page(ParentInvitePage) },
  sessionRoute,
];

/** The input-less reads a page renders first, asked for with its chunk (lib/api/early-fetch.ts). */
const firstReads = new Map<Page, Parameters<typeof startEarlyCalls>[0]>([
  [AuthenticatedLayout, ['IOSDevices']],
  // GetUsers: the home page's Pause internet card (issue 34)
  [DashboardPage, ['DashboardWidgets', 'GetFamilyDevices', 'GetInbox', 'GetUsers']],
]);

/** The pages nested in the route of `pathname` (data providers, layout, page), outermost first. */
function pagesOf(pathname: string): Page[] {
  const pages: Page[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const Page = isValidElement(route.element) ? pageOfElement.get(route.element) : undefined;
    if (Page) pages.push(Page);
  }
  return pages;
}

/** Whether `pathname` is a signed-in page (behind RequireSession). */
export function isSignedInPath(pathname: string): boolean {
  return (matchRoutes(routes, pathname) ?? []).some((match) => match.route === sessionRoute);
}

/** The input-less reads the pages of `pathname` render first. */
export function firstReadsOf(pathname: string): Parameters<typeof startEarlyCalls>[0] {
  return pagesOf(pathname).flatMap((Page) => firstReads.get(Page) ?? []);
}

/** Downloads the chunks of every page of `pathname` together; settles once they have arrived. */
export function loadPagesOf(pathname: string): Promise<void> {
  const chunks = pagesOf(pathname)
    .filter((Page) => 'preload' in Page)
    .map((Page) => (Page as LazyPage<ComponentType>).preload());
  return Promise.all(chunks).then(() => undefined);
}

/**
 * Issue 21, no waterfall on the first load: the chunks of every page nested in the route of
 * `pathname` (data providers, layout, page) start downloading together, and so do their first
 * reads (unless the page came rendered with them: issue 30), instead of one after the other as
 * each lazy page renders. A signed-in route without a session gets nothing (it redirects to
 * /logout). Settles once those chunks have arrived (or failed: the page's error boundary then says so).
 */
export function prepareFirstScreen(
  pathname: string,
  { withReads = true }: { withReads?: boolean } = {},
): Promise<void> {
  if (isSignedInPath(pathname) && !getSession()) return Promise.resolve();
  if (withReads) startEarlyCalls(firstReadsOf(pathname));
  return loadPagesOf(pathname);
}
