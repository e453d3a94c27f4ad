import { useIsHydrated } from '../../lib/hydrated';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from './cx';
import { Spinner } from './Spinner';

export type ButtonVariant =
  | 'primary'
  | 'secondary'
  | 'danger'
  | 'dangerSecondary'
  | 'dangerGhost'
  | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white shadow-sm hover:from-violet-700 hover:to-fuchsia-700',
  secondary: 'bg-white text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700',
  // Destructive actions outside a confirmation: red text, never the violet of ghost/secondary.
  dangerSecondary: 'bg-white text-red-700 ring-1 ring-red-300 ring-inset hover:bg-red-50',
  dangerGhost: 'text-red-700 hover:bg-red-50',
  ghost: 'text-violet-700 hover:bg-violet-50',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  lg: 'px-5 py-3 text-base',
};

/**
 * `className` is for layout (margins, width) only: colours, rings and backgrounds come from the
 * variant, because a second Tailwind colour class does not reliably win over the variant's.
 */
export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
) {
  return cx(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-500',
    'disabled:cursor-not-allowed disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  );
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  isLoading?: boolean;
  fullWidth?: boolean;
};

export function Button({
  variant = 'primary',
  size = 'md',
  isLoading = false,
  fullWidth = false,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  // issue 30: a form in HTML rendered ahead of the browser is not submitted before React runs it
  const isHydrated = useIsHydrated();
  return (
    <button
      type={type}
      disabled={disabled || isLoading || (type === 'submit' && !isHydrated)}
      aria-busy={isLoading || undefined}
      className={buttonClasses(variant, size, cx(fullWidth && 'w-full', className))}
      {...rest}
    >
      {isLoading && <Spinner className="h-4 w-4 text-current" />}
      {children}
    </button>
  );
}

type LinkButtonProps = {
  to: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  children: ReactNode;
};

export function LinkButton({
  to,
  variant = 'primary',
  size = 'md',
  className,
  children,
}: LinkButtonProps) {
  return (
    <Link to={to} className={buttonClasses(variant, size, className)}>
      {children}
    </Link>
  );
}
