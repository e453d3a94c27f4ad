import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { PageHeading } from '../../components/ui/PageHeading';
import { TextInput } from '../../components/ui/TextInput';
import { useSaveChild } from './api';
import { MAX_NAME_LENGTH, newChildInput } from './child-editor';
import { newId } from '../../lib/new-id';

export default function NewChildPage() {
  const [name, setName] = useState('');
  const saveChild = useSaveChild();
  const navigate = useNavigate();
  const isBlank = name.trim() === '';

  async function save(event: FormEvent) {
    event.preventDefault();
    if (isBlank || saveChild.isPending) return;
    const id = newId();
    try {
      await saveChild.mutateAsync(newChildInput(id, name));
    } catch {
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
            maxLength={MAX_NAME_LENGTH}
            autoComplete="off"
            autoFocus
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <LinkButton to="/children" variant="secondary">
              Cancel
            </LinkButton>
            <Button type="submit" disabled={isBlank} isLoading={saveChild.isPending}>
              Save child
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}
