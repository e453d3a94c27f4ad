import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { useAdmin } from './api';
import { NotificationSettings } from './NotificationSettings';
import { ParentsSection } from './ParentsSection';
import { PlanCard } from './PlanCard';
import { SignInSecuritySection } from './SignInSecuritySection';
import { DataExportSection } from './DataExportSection';
import { WeeklyReportSection } from './WeeklyReportSection';

export default function SettingsPage() {
  const admin = useAdmin();

  if (admin.isPending) return <Spinner className="h-8 w-8" label="Loading settings..." />;
  if (admin.isError) {
    if (admin.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(admin.error)} />;
  }

  const role = admin.data.role ?? 'owner';
  return (
    <>
      <PageHeading title="Settings" />
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Account</h2>
        <dl className="mt-4 divide-y divide-slate-100">
          <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
            <dt className="text-sm font-medium text-slate-500">Email</dt>
            <dd className="text-sm break-all text-slate-900">{admin.data.email}</dd>
          </div>
          <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
            <dt className="text-sm font-medium text-slate-500">Password</dt>
            <dd>
              <Link
                to="/reset-password"
                className="text-sm font-semibold text-violet-700 hover:text-violet-900 hover:underline"
              >
                Change password
              </Link>
            </dd>
          </div>
        </dl>
      </Card>
      <PlanCard
        status={admin.data.subscriptionStatus}
        monthlyPriceInDollars={admin.data.monthlyPriceInDollars}
        canManageBilling={role === 'owner'}
      />
      <ParentsSection viewerRole={role} />
      <Card className="mt-6">
        <h2 className="text-lg font-semibold text-slate-900">Audit log</h2>
        <p className="mt-1 text-sm text-slate-600">
          Every change made by a parent of this family, newest first.{' '}
          <Link
            to="/settings/audit-log"
            className="font-semibold text-violet-700 hover:text-violet-900 hover:underline"
          >
            View the audit log
          </Link>
        </p>
      </Card>
      <NotificationSettings admin={admin.data} />
      <WeeklyReportSection canChange={role === 'owner'} />
      <SignInSecuritySection email={admin.data.email} />
      <DataExportSection canExport={role === 'owner'} />
    </>
  );
}
