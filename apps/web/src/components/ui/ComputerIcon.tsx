import type { DeviceModelFamily } from '@keyward/contract/shared';
import { cx } from './cx';

const laptops: ReadonlySet<DeviceModelFamily> = new Set(['macBook', 'macBookAir', 'macBookPro']);

/** A laptop for MacBooks, a desktop for the others (iMac, Studio, mini, Pro, unknown). */
export function ComputerIcon({
  family,
  className,
}: {
  family: DeviceModelFamily;
  className?: string;
}) {
  const isLaptop = laptops.has(family);
  return (
    <svg
      viewBox="0 0 48 48"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cx('h-10 w-10 shrink-0 text-violet-600', className)}
      aria-hidden="true"
      data-shape={isLaptop ? 'laptop' : 'desktop'}
    >
      {isLaptop ? (
        <>
          <rect x="9" y="10" width="30" height="21" rx="2" />
          <path d="M4 36h40l-2 3H6z" />
        </>
      ) : (
        <>
          <rect x="5" y="7" width="38" height="26" rx="2.5" />
          <path d="M20 33l-2 7m10-7l2 7M15 40h18" />
        </>
      )}
    </svg>
  );
}
