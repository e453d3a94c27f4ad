import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/cx';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { useSession } from '../../lib/session-context';
import { useDeleteParentAccount } from './use-case-api';
import { Alert, AuthLayout } from './AuthLayout';

export type UseCase = 'parent' | 'adult-peer' | 'self';

export const ACCOUNT_DELETION_LOGOUT_DELAY_MS = 3000;
export const ACCOUNT_DELETION_FAILED = 'Hmm, something went wrong. Refresh the page and try again.';

const options: Array<{ value: UseCase; title: string; description: string }> = [
  {
    value: 'parent',
    title: "I'm a parent or guardian",
    description: "I want to keep my children's computers safe.",
  },
  {
    value: 'adult-peer',
    title: "I'm helping another adult",
    description: 'A friend asked me to hold the keys to their internet filter.',
  },
  {
    value: 'self',
    title: "It's for me",
    description: 'I want to control my own internet use.',
  },
];

export default function UseCasePage() {
  const navigate = useNavigate();
  const { session } = useSession();
  const deleteAccount = useDeleteParentAccount();
  const [useCase, setUseCase] = useState<UseCase | null>(null);
  const [isConfirmingDeletion, setIsConfirmingDeletion] = useState(false);

  useEffect(() => {
    if (!deleteAccount.isSuccess) return;
    const timer = setTimeout(() => navigate('/logout'), ACCOUNT_DELETION_LOGOUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [deleteAccount.isSuccess, navigate]);

  function onContinue(event: FormEvent) {
    event.preventDefault();
    if (useCase === 'parent' || useCase === 'adult-peer') navigate('/');
  }

  function onDeleteAccount() {
    if (!session) return;
    deleteAccount.mutate(
      { type: 'parent', id: session.adminId },
      // A failure is shown on the page, under the warning.
      { onError: () => setIsConfirmingDeletion(false) },
    );
  }

  if (deleteAccount.isSuccess) {
    return (
      <AuthLayout title="Your account has been deleted">
        <Alert tone="info">Thanks for trying Keyward. Logging you out...</Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Who will you use Keyward for?"
      subtitle="This helps us set things up for you."
    >
      <form onSubmit={onContinue}>
        <fieldset>
          <legend className="sr-only">Use case</legend>
          <div className="space-y-3">
            {options.map((option) => (
              <label
                key={option.value}
                className={cx(
                  'flex cursor-pointer gap-3 rounded-xl p-4 ring-1 transition-colors',
                  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-500',
                  useCase === option.value
                    ? 'bg-violet-50 ring-2 ring-violet-600'
                    : 'ring-slate-200 hover:bg-slate-50',
                )}
              >
                <input
                  type="radio"
                  name="use-case"
                  value={option.value}
                  checked={useCase === option.value}
                  onChange={() => setUseCase(option.value)}
                  className="mt-1 accent-violet-600"
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{option.title}</span>
                  <span className="block text-sm text-slate-500">{option.description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {useCase === 'self' ? (
          <div className="mt-6 space-y-4">
            <div
              role="alert"
              className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-600/20"
            >
              <ExclamationTriangleIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
              <p>
                Keyward is not meant for self-control. It works when someone else — a parent, or a
                trusted friend — holds the keys. If you set it up for yourself, you could lock
                yourself out of things you need. We suggest deleting this account, or asking a
                friend to set Keyward up for you.
              </p>
            </div>
            {deleteAccount.isError && <Alert tone="error">{ACCOUNT_DELETION_FAILED}</Alert>}
            <Button
              variant="danger"
              fullWidth
              isLoading={deleteAccount.isPending}
              onClick={() => setIsConfirmingDeletion(true)}
            >
              Delete my account
            </Button>
            <DeleteModal
              type="account"
              isOpen={isConfirmingDeletion}
              isDeleting={deleteAccount.isPending}
              onConfirm={onDeleteAccount}
              onCancel={() => setIsConfirmingDeletion(false)}
            />
          </div>
        ) : (
          <Button type="submit" fullWidth size="lg" className="mt-6" disabled={useCase === null}>
            Continue
          </Button>
        )}
      </form>
    </AuthLayout>
  );
}
