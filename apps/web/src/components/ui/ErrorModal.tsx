import type { PqlError } from '@keyward/contract/errors';
import { ExclamationCircleIcon } from '@heroicons/react/24/outline';
import { errorMessage, errorTitle } from '../../lib/errors';
import { externalLinks } from '../../lib/links';
import { Button, buttonClasses } from './Button';
import { Modal } from './Modal';

type ErrorModalProps = {
  error: PqlError | null;
  /** Default: reload the app at the home page. */
  onPrimary?: () => void;
  primaryLabel?: string;
  onClose?: () => void;
};

export function ErrorModal({
  error,
  onPrimary,
  primaryLabel = 'Go to dashboard',
  onClose,
}: ErrorModalProps) {
  if (!error) return null;
  const goHome = () => window.location.assign('/');
  return (
    <Modal
      isOpen
      title={errorTitle(error)}
      onClose={onClose}
      icon={
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-red-100">
          <ExclamationCircleIcon className="h-6 w-6 text-red-600" aria-hidden="true" />
        </span>
      }
      actions={
        <>
          <a
            href={externalLinks.contactSupport}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses('secondary')}
          >
            Contact support
          </a>
          <Button onClick={onPrimary ?? goHome}>{primaryLabel}</Button>
        </>
      }
    >
      <p>{errorMessage(error)}</p>
    </Modal>
  );
}
