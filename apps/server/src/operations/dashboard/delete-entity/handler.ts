import type { ParentContext } from '../../../pairql/context.ts';

/** Deletes one entity of the session parent, or throws notFound (ownership helpers). */
export type DeleteEntityHandler = (id: string, ctx: ParentContext) => Promise<void>;

export function deleteEntityHandler(handler: DeleteEntityHandler): DeleteEntityHandler {
  return handler;
}
