import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { ConfirmationModal } from './ConfirmationModal';

type DeleteModalProps = {
  isOpen: boolean;
  /** The thing being deleted in product words, e.g. 'child', 'keychain'. */
  type: string;
  isDeleting?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function DeleteModal({ isOpen, type, isDeleting, onConfirm, onCancel }: DeleteModalProps) {
  return (
    <ConfirmationModal
      isOpen={isOpen}
      title={`Delete ${type}?`}
      confirmLabel="Delete"
      confirmVariant="danger"
      isConfirming={isDeleting}
      onConfirm={onConfirm}
      onCancel={onCancel}
      icon={
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-red-100">
          <ExclamationTriangleIcon className="h-6 w-6 text-red-600" aria-hidden="true" />
        </span>
      }
    >
      {`Are you sure you want to delete this ${type}? There is no undo.`}
    </ConfirmationModal>
  );
}
