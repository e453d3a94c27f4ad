import { Modal } from './Modal';
import { Spinner } from './Spinner';

export function LoadingModal({
  isOpen,
  title = 'Loading...',
}: {
  isOpen: boolean;
  title?: string;
}) {
  return (
    <Modal isOpen={isOpen} title={title} size="sm" className="text-center">
      <Spinner className="h-8 w-8" label="Please wait" />
    </Modal>
  );
}
