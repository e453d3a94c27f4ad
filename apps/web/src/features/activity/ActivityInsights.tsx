import { BellAlertIcon } from '@heroicons/react/24/outline';
import { Link } from 'react-router';
import { Card } from '../../components/ui/Card';
import { cx } from '../../components/ui/cx';
import { useChildActivityInsights } from './api';
import { type InsightBar, insightsView } from './insights';
import { ScreenTimeWeek } from '../screen-time/ScreenTime';

// Issue 24: one child's week on the activity page and the child page: items per day and per hour
// (bars in plain CSS, no chart library), alerts, flags, the apps typed in most, the sites asked for most
// and time suspended. A failure to load hides the card: the rest of the page still works.

const CHART_HEIGHT = 96;

function Bars({
  bars,
  label,
  childId,
  showEveryLabel,
}: {
  bars: InsightBar[];
  label: string;
  childId: string;
  showEveryLabel: boolean;
}) {
  return (
    // min-w-0: 24 hour labels must not widen the page's grid column past a phone's screen
    <figure className="min-w-0">
      <figcaption className="text-sm font-medium text-slate-700">{label}</figcaption>
      <ul
        aria-label={label}
        className="mt-2 flex items-end gap-1"
        style={{ height: CHART_HEIGHT + 20 }}
      >
        {bars.map((bar, index) => {
          const total = Math.round(bar.height * CHART_HEIGHT);
          const alertPart = bar.value === 0 ? 0 : Math.round((bar.alerts / bar.value) * total);
          const column = (
            <>
              <span
                className="flex w-full flex-col justify-end overflow-hidden rounded-t bg-violet-200"
                style={{ height: Math.max(total, bar.value > 0 ? 2 : 0) }}
                aria-hidden="true"
              >
                {alertPart > 0 && (
                  <span className="w-full bg-red-500" style={{ height: Math.max(alertPart, 2) }} />
                )}
              </span>
              <span
                className={cx(
                  'mt-1 h-4 text-center text-[10px] leading-4 whitespace-nowrap text-slate-500',
                  !showEveryLabel && index % 6 !== 0 && 'invisible',
                )}
                aria-hidden="true"
              >
                {bar.label}
              </span>
            </>
          );
          return (
            <li key={bar.key} className="flex min-w-0 flex-1 flex-col items-center justify-end">
              {bar.urlDate && bar.value > 0 ? (
                <Link
                  to={`/children/${childId}/activity/${bar.urlDate}`}
                  className="flex w-full flex-col items-center justify-end rounded focus-visible:outline-2 focus-visible:outline-violet-500"
                  aria-label={bar.description}
                  title={bar.description}
                >
                  {column}
                </Link>
              ) : (
                <span
                  className="flex w-full flex-col items-center justify-end"
                  role="img"
                  aria-label={bar.description}
                  title={bar.description}
                >
                  {column}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

function TopList({ title, rows }: { title: string; rows: { name: string; count: string }[] }) {
  return (
    <div className="min-w-0">
      <h3 className="text-sm font-medium text-slate-700">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None this week.</p>
      ) : (
        <ol className="mt-1 space-y-0.5 text-sm">
          {rows.map((row) => (
            <li key={row.name} className="flex justify-between gap-3">
              <bdi className="min-w-0 truncate text-slate-900">{row.name}</bdi>
              <span className="shrink-0 text-slate-500">{row.count}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

export function ActivityInsights({ childId, childName }: { childId: string; childName: string }) {
  const insights = useChildActivityInsights(childId);
  if (insights.isPending || insights.isError || !insights.data) return null;
  const view = insightsView(insights.data, childName);
  return (
    <Card>
      <section aria-labelledby="child-insights-heading" className="space-y-5">
        <div>
          <h2 id="child-insights-heading" className="text-lg font-semibold text-slate-900">
            This week
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {view.summary}
            {view.suspended && ` ${view.suspended}.`}
          </p>
          {view.alerts.length > 0 && (
            <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-800">
              <BellAlertIcon className="h-4 w-4" aria-hidden="true" />
              Alerts: {view.alerts.join(', ')}
            </p>
          )}
          {view.keyloggingNote && (
            <p className="mt-2 text-sm text-slate-500">{view.keyloggingNote}</p>
          )}
        </div>
        {/* issue 34: the week's screen time against the allowance, and the top sites by time */}
        <ScreenTimeWeek childId={childId} />
        <div className="grid gap-6 sm:grid-cols-2">
          <Bars bars={view.days} label="Items by day" childId={childId} showEveryLabel />
          <Bars bars={view.hours} label="Items by hour" childId={childId} showEveryLabel={false} />
        </div>
        <div className="grid gap-6 sm:grid-cols-2">
          <TopList title="Typed in most" rows={view.topApps} />
          <TopList title="Asked to unlock most" rows={view.topRequests} />
        </div>
        {view.falseAlerts.length > 0 && (
          <div>
            <h3 className="text-sm font-medium text-slate-700">Reported as false alerts</h3>
            <ul className="mt-1 text-sm text-slate-600">
              {view.falseAlerts.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </Card>
  );
}
