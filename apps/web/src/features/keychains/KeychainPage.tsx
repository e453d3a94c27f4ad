import type { Key } from '@keyward/contract/shared';
import { LIMITS } from '@keyward/contract/constants';
import { commentPreview } from '@keyward/domain/keys';
import { matchesSearch, SEARCH_FROM_ITEMS } from '@keyward/domain/search';
import { KeyIcon, PencilSquareIcon, PlusIcon, TrashIcon } from '@heroicons/react/24/outline';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useIsMobile } from '../../lib/useIsMobile';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { EmptyState } from '../../components/ui/EmptyState';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { TextInput } from '../../components/ui/TextInput';
import { dashboardQueryKey } from '../../lib/api/hooks';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useDescribeKey } from '../keys/describe';
import { KeyWizard } from '../keys/KeyWizard';
import { useAdminKeychain, useDeleteKey, useDeleteKeychain, useSaveKeychain } from './api';
import { SomethingWentWrong } from './SomethingWentWrong';
import { newId } from '../../lib/new-id';

/** /keychains/new creates a keychain; /keychains/:keychainId edits one. */
export default function KeychainPage() {
  const { keychainId = '' } = useParams();
  if (keychainId === 'new') return <NewKeychain />;
  return <ExistingKeychain key={keychainId} id={keychainId} />;
}

type Details = { name: string; description: string };

function NewKeychain() {
  const [id] = useState(() => newId());
  const navigate = useNavigate();
  return (
    <>
      <PageHeading title="New keychain" />
      <div className="max-w-4xl space-y-6">
        <DetailsForm
          id={id}
          isNew
          saved={{ name: '', description: '' }}
          onSaved={() => navigate(`/keychains/${id}`, { replace: true })}
        />
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Keys</h2>
          <p className="mt-1 text-sm text-slate-500">
            Create the keychain first, then add keys to it.
          </p>
        </Card>
      </div>
    </>
  );
}

function ExistingKeychain({ id }: { id: string }) {
  const keychain = useAdminKeychain(id);
  const [saved, setSaved] = useState<Details | null>(null);
  const [wizard, setWizard] = useState<{ key?: Key } | null>(null);
  const [keyToDelete, setKeyToDelete] = useState<Key | null>(null);
  const deleteKey = useDeleteKey();
  const keychainDeletion = useDeleteKeychainFlow(id);

  if (keychain.isPending) return <Spinner className="h-8 w-8" label="Loading keychain..." />;
  if (keychain.isError) {
    if (keychain.error.type === 'loggedOut') return null; // the hook is already redirecting
    // Spec §8 words a failed keychain load; a missing keychain or the network says so instead.
    if (keychain.error.type !== 'notFound' && !keychain.error.userMessage) {
      return <SomethingWentWrong />;
    }
    return <LoadFailure error={keychain.error} backTo="/keychains" backLabel="Back to keychains" />;
  }

  const { summary, keys } = keychain.data;
  const loaded = { name: summary.name, description: summary.description ?? '' };

  async function confirmDeleteKey() {
    if (!keyToDelete) return;
    try {
      await deleteKey.mutateAsync({ type: 'key', id: keyToDelete.id });
    } catch {
      // the error toast has told the parent
    }
    setKeyToDelete(null);
  }

  return (
    <>
      <PageHeading title={summary.name} />
      <div className="max-w-4xl space-y-6">
        <DetailsForm id={id} isNew={false} saved={saved ?? loaded} onSaved={setSaved} />
        <Card>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">Keys</h2>
            <Button size="sm" onClick={() => setWizard({})}>
              <PlusIcon className="h-4 w-4" aria-hidden="true" />
              Add new key
            </Button>
          </div>
          <div className="mt-5">
            {keys.length === 0 ? (
              <EmptyState
                icon={<KeyIcon className="h-10 w-10" aria-hidden="true" />}
                title="No keys"
                description="Add a key to unlock a website or an app."
              />
            ) : (
              <KeysView
                keys={keys}
                onEdit={(key) => setWizard({ key })}
                onDelete={setKeyToDelete}
              />
            )}
          </div>
        </Card>
        <div className="border-t border-slate-200 pt-6">
          <Button variant="dangerSecondary" onClick={keychainDeletion.open}>
            <TrashIcon className="h-4 w-4" aria-hidden="true" />
            Delete keychain
          </Button>
        </div>
      </div>
      {wizard && (
        <KeyWizard keychainId={id} existingKey={wizard.key} onClose={() => setWizard(null)} />
      )}
      <DeleteModal
        isOpen={keyToDelete !== null}
        type="key"
        isDeleting={deleteKey.isPending}
        onConfirm={() => void confirmDeleteKey()}
        onCancel={() => setKeyToDelete(null)}
      />
      {keychainDeletion.modal}
    </>
  );
}

function useDeleteKeychainFlow(id: string) {
  const [isConfirming, setIsConfirming] = useState(false);
  const deleteKeychain = useDeleteKeychain();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  async function confirm() {
    try {
      await deleteKeychain.mutateAsync({ type: 'keychain', id });
    } catch {
      setIsConfirming(false);
      return; // the error toast has told the parent
    }
    navigate('/keychains', { replace: true });
    queryClient.removeQueries({ queryKey: dashboardQueryKey('GetAdminKeychain', id) });
  }
  return {
    open: () => setIsConfirming(true),
    modal: (
      <DeleteModal
        isOpen={isConfirming}
        type="keychain"
        isDeleting={deleteKeychain.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setIsConfirming(false)}
      />
    ),
  };
}

function DetailsForm({
  id,
  isNew,
  saved,
  onSaved,
}: {
  id: string;
  isNew: boolean;
  saved: Details;
  onSaved: (details: Details) => void;
}) {
  const [draft, setDraft] = useState(saved);
  const [saveError, setSaveError] = useState<string>();
  const saveKeychain = useSaveKeychain();
  const descriptionId = useId();
  const hasChanges = draft.name !== saved.name || draft.description !== saved.description;
  const canSave = draft.name.trim() !== '' && !saveKeychain.isPending && (isNew || hasChanges);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canSave) return;
    const details = { name: draft.name.trim(), description: draft.description.trim() };
    setSaveError(undefined);
    try {
      await saveKeychain.mutateAsync({
        isNew,
        id,
        name: details.name,
        ...(details.description ? { description: details.description } : {}),
      });
      setDraft(details);
      onSaved(details);
    } catch (error) {
      setSaveError(errorMessage(toPqlError(error)));
    }
  }

  return (
    <Card>
      <form onSubmit={(event) => void save(event)} className="space-y-4">
        <TextInput
          label="Name"
          value={draft.name}
          onChange={(name) => setDraft({ ...draft, name })}
          maxLength={LIMITS.name}
          autoComplete="off"
        />
        <div>
          <div className="mb-1 flex items-baseline justify-between">
            <label htmlFor={descriptionId} className="block text-sm font-medium text-slate-700">
              Description
            </label>
            <span className="text-xs text-slate-500">*optional</span>
          </div>
          <textarea
            id={descriptionId}
            rows={3}
            value={draft.description}
            maxLength={LIMITS.comment}
            onChange={(event) => setDraft({ ...draft, description: event.target.value })}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
          />
        </div>
        {saveError && (
          <p role="alert" className="text-sm text-red-700">
            {saveError}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={!canSave} isLoading={saveKeychain.isPending}>
            {isNew ? 'Create keychain' : 'Save keychain'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function expirationText(key: Key): string {
  return key.expiration ? new Date(key.expiration).toLocaleDateString() : 'Never';
}

type KeysViewProps = {
  keys: Key[];
  onEdit: (key: Key) => void;
  onDelete: (key: Key) => void;
};

/** A table at wide screens (≥ 768 px), a list below; a search box over many keys (issue 20). */
function KeysView(props: KeysViewProps) {
  const isMobile = useIsMobile();
  const [query, setQuery] = useState('');
  const describeKey = useDescribeKey(props.keys.map((key) => key.key));
  const keys = props.keys.filter((key) =>
    matchesSearch([describeKey(key.key), key.comment ?? ''], query),
  );
  const shown = { ...props, keys };
  return (
    <>
      {props.keys.length >= SEARCH_FROM_ITEMS && (
        <TextInput
          type="text"
          label="Search keys"
          hideLabel
          placeholder="Search keys"
          value={query}
          onChange={setQuery}
          className="mb-4 max-w-sm"
        />
      )}
      {keys.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          No key matches "{query}".
        </p>
      ) : isMobile ? (
        <KeyList {...shown} />
      ) : (
        <KeyTable {...shown} />
      )}
    </>
  );
}

function KeyActions({ keyItem, onEdit, onDelete }: { keyItem: Key } & Omit<KeysViewProps, 'keys'>) {
  const label = useDescribeKey([keyItem.key])(keyItem.key);
  return (
    <div className="flex justify-end gap-1">
      <button
        type="button"
        onClick={() => onEdit(keyItem)}
        aria-label={`Edit key ${label}`}
        title="Edit key"
        className="rounded-lg p-1.5 text-slate-500 hover:bg-violet-50 hover:text-violet-700 focus-visible:outline-2 focus-visible:outline-violet-500"
      >
        <PencilSquareIcon className="h-5 w-5" aria-hidden="true" />
      </button>
      <button
        type="button"
        onClick={() => onDelete(keyItem)}
        aria-label={`Delete key ${label}`}
        title="Delete key"
        className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-violet-500"
      >
        <TrashIcon className="h-5 w-5" aria-hidden="true" />
      </button>
    </div>
  );
}

function KeyTable({ keys, onEdit, onDelete }: KeysViewProps) {
  const describeKey = useDescribeKey(keys.map((key) => key.key));
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-500 uppercase">
        <tr>
          <th className="w-[45%] py-2 pr-3 font-medium">Key</th>
          <th className="py-2 pr-3 font-medium">Comment</th>
          <th className="w-28 py-2 pr-3 font-medium">Expires</th>
          <th className="w-24 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {keys.map((key) => (
          <tr key={key.id}>
            <td className="py-3 pr-3 break-words text-slate-900">{describeKey(key.key)}</td>
            <td className="py-3 pr-3 text-slate-600" title={key.comment}>
              {key.comment ? commentPreview(key.comment) : ''}
            </td>
            <td className="py-3 pr-3 text-slate-600">{expirationText(key)}</td>
            <td className="py-3">
              <KeyActions keyItem={key} onEdit={onEdit} onDelete={onDelete} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function KeyList({ keys, onEdit, onDelete }: KeysViewProps) {
  const describeKey = useDescribeKey(keys.map((key) => key.key));
  return (
    <ul className="divide-y divide-slate-100">
      {keys.map((key) => (
        <li key={key.id} className="flex items-start gap-3 py-3">
          <div className="min-w-0 flex-1">
            <p className="text-sm break-words text-slate-900">{describeKey(key.key)}</p>
            {key.comment && (
              <p className="mt-0.5 text-xs text-slate-500">{commentPreview(key.comment)}</p>
            )}
            <p className="mt-0.5 text-xs text-slate-500">Expires: {expirationText(key)}</p>
          </div>
          <KeyActions keyItem={key} onEdit={onEdit} onDelete={onDelete} />
        </li>
      ))}
    </ul>
  );
}
