import type { UnlockRequest } from '@keyward/contract/shared';
import { unlockRequestToKeyEditorState } from '@keyward/domain/unlock-request';
import { useState } from 'react';
import { useFamilyDevices } from '../devices/api';
import { dnsOnlyKeyNote } from '../devices/devices';
import { KeyWizard } from '../keys/KeyWizard';
import { prefilledKeyWizardState } from '../keys/key-wizard';
import type { SaveKeyInput } from './unlock-request-decision';
import { newId } from '../../lib/new-id';

/**
 * The accept flow's last step: the key wizard, in edit mode, prefilled from the request. Its own
 * chunk: the key rules carry the public-suffix list, which the review page does not need.
 */
export default function EditRequestKey({
  request,
  keychainId,
  onClose,
  onSave,
}: {
  request: UnlockRequest;
  keychainId: string;
  onClose: () => void;
  onSave: (key: SaveKeyInput) => Promise<void>;
}) {
  // issue 33: a child whose devices are all Keyward DNS devices gets only what DNS can enforce
  const devices = useFamilyDevices();
  const note = Array.isArray(devices.data)
    ? dnsOnlyKeyNote(devices.data, request.userId)
    : undefined;
  const [initialState] = useState(() =>
    prefilledKeyWizardState(keychainId, newId(), unlockRequestToKeyEditorState(request)),
  );
  return (
    <KeyWizard
      keychainId={keychainId}
      initialState={initialState}
      submitLabel="Save key and accept"
      note={note}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
