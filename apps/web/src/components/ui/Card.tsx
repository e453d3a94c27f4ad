import type { ReactNode } from 'react';
import { cx } from './cx';

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section className={cx('rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200', className)}>
      {children}
    </section>
  );
}
