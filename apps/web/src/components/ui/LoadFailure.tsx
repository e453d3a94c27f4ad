import type { PqlError } from '@keyward/contract/errors';
import { errorMessage, errorTitle } from '../../lib/errors';
import { LinkButton } from './Button';
import { FullPageStatus } from './FullPageStatus';

type LoadFailureProps = {
  error: PqlError;
  /** The list the entity belongs to, e.g. '/computers'. */
  backTo: string;
  /** e.g. 'Back to computers'. */
  backLabel: string;
};

/**
 * A page whose entity could not be loaded (missing, another parent's, offline...): the error in
 * the spec's words and a way back to its list.
 */
export function LoadFailure({ error, backTo, backLabel }: LoadFailureProps) {
  return (
    <FullPageStatus status="failure" title={errorTitle(error)} message={errorMessage(error)}>
      <LinkButton to={backTo} variant="secondary">
        {backLabel}
      </LinkButton>
    </FullPageStatus>
  );
}
