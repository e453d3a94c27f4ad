import { Card } from '../../components/ui/Card';
import { Toggle } from '../../components/ui/Toggle';
import { useSaveWeeklyReport, useWeeklyReport } from './api';

/** The browser's IANA time zone: the report comes on Sunday evening there. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Issue 23: the weekly report email, on by default; the account owner switches it. */
export function WeeklyReportSection({ canChange }: { canChange: boolean }) {
  const report = useWeeklyReport();
  const save = useSaveWeeklyReport();
  if (!report.data) return null;
  const timeZone = report.data.timeZone ?? 'UTC';
  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Weekly report</h2>
      <div className="mt-4">
        <Toggle
          label="Weekly report by email"
          description={`Every Sunday evening (${timeZone}): each child's requests, activity to review, flagged items and security events.${canChange ? '' : ' Only the account owner can change this.'}`}
          isOn={report.data.isEnabled}
          isDisabled={!canChange || save.isPending}
          onChange={(isOn) => {
            const zone = browserTimeZone();
            save.mutate({ isEnabled: isOn, ...(zone ? { timeZone: zone } : {}) });
          }}
        />
      </div>
    </Card>
  );
}
