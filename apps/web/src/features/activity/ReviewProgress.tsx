import { cx } from '../../components/ui/cx';
import { reviewedPercent, reviewedText } from './summaries';

/** 'N out of M items reviewed' with its progress bar. */
export function ReviewProgress({
  numReviewed,
  numTotal,
  className,
}: {
  numReviewed: number;
  numTotal: number;
  className?: string;
}) {
  const percent = reviewedPercent(numReviewed, numTotal);
  const text = reviewedText(numReviewed, numTotal);
  return (
    <div className={cx('min-w-0', className)}>
      <div
        role="progressbar"
        aria-label={text}
        aria-valuemin={0}
        aria-valuemax={numTotal}
        aria-valuenow={Math.min(numReviewed, numTotal)}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className={cx(
            'h-full rounded-full transition-[width] duration-300',
            percent === 100 ? 'bg-green-500' : 'bg-gradient-to-r from-violet-500 to-fuchsia-500',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1.5 text-sm text-slate-600">{text}</p>
    </div>
  );
}
