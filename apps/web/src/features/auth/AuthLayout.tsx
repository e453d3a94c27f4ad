import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/ui/Logo';

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
};

/** The centred card shared by the public pages. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className="flex min-h-full flex-col items-center justify-center bg-gradient-to-br from-violet-50 via-white to-fuchsia-50 px-4 py-12">
      <header className="mb-8">
        <Link to="/" className="block rounded-lg" aria-label="Keyward home">
          <Logo />
        </Link>
      </header>
      <main className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl shadow-violet-900/5 ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </main>
      {footer && <footer className="mt-6 text-center text-sm text-slate-600">{footer}</footer>}
    </div>
  );
}

export function Alert({
  tone,
  title,
  children,
}: {
  tone: 'success' | 'error' | 'info';
  title?: string;
  children: ReactNode;
}) {
  const styles = {
    success: 'bg-green-50 text-green-800 ring-green-600/20',
    error: 'bg-red-50 text-red-800 ring-red-600/20',
    info: 'bg-violet-50 text-violet-800 ring-violet-600/20',
  }[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg p-4 text-sm ring-1 ring-inset ${styles}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      <div className={title ? 'mt-1' : undefined}>{children}</div>
    </div>
  );
}

export const linkClasses = 'font-semibold text-violet-700 hover:text-violet-900 hover:underline';
