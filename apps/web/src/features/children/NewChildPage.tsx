import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { PageHeading } from '../../components/ui/PageHeading';
import { TextInput } from '../../components/ui/TextInput';
import { newId } from '../../lib/new-id';
import { useSaveChild } from './api';
import { childNameProblem, newChildInput } from './child-editor';

export default function NewChildPage() {
  const [name, setName] = useState('');
  // One id for the page: a save sent twice creates one child (the server is idempotent on it).
  const [id] = useState(newId);
  // Set on the first click, before React re-renders: a double click sends one save.
  const isSaving = useRef(false);
  const saveChild = useSaveChild();
  const navigate = useNavigate();
  const isBlank = name.trim() === '';
  const problem = isBlank ? undefined : childNameProblem(name);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (isBlank || problem || isSaving.current) return;
    isSaving.current = true;
    try {
      await saveChild.mutateAsync(newChildInput(id, name));
    } catch {
      isSaving.current = false;
      return; // the error toast has told the parent
    }
    navigate(`/children/${id}`, { replace: true });
  }

  return (
    <>
      <PageHeading title="Add a child" />
      <Card className="max-w-xl">
        <form onSubmit={save} className="space-y-6">
          <TextInput
            label="Name"
            value={name}
            onChange={setName}
            error={problem}
            autoComplete="off"
            autoFocus
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <LinkButton to="/children" variant="secondary">
              Cancel
            </LinkButton>
            <Button
              type="submit"
              disabled={isBlank || problem !== undefined}
              isLoading={saveChild.isPending}
            >
              Save child
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}
