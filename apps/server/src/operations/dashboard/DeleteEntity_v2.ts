import { existsSync } from 'node:fs';
import { notAvailableYet } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import type { DeleteEntityHandler } from './delete-entity/handler.ts';

// One handler file per entity type: ./delete-entity/<type>.ts (`export default deleteEntityHandler(...)`).
// A type without a file answers notFound "not available yet". Each handler MUST check ownership.
const handlers = new Map<string, DeleteEntityHandler>();

async function handlerFor(type: string): Promise<DeleteEntityHandler | undefined> {
  if (handlers.has(type)) return handlers.get(type);
  const file = new URL(`./delete-entity/${type}.ts`, import.meta.url);
  if (!existsSync(file)) return undefined;
  const handler = ((await import(file.href)) as { default: DeleteEntityHandler }).default;
  handlers.set(type, handler);
  return handler;
}

export default dashboardResolver('DeleteEntity_v2', async (input, ctx) => {
  const handler = await handlerFor(input.type);
  if (!handler) throw notAvailableYet('e5a7b3c1', `Deleting a ${input.type}`);
  await handler(input.id, ctx);
  return { success: true };
});
