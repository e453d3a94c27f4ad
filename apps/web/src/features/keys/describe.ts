import type { SharedKey } from '@keyward/contract/shared';
import { appNamesOf, describeKeyNamingApps } from '@keyward/domain/keys';
import { useIdentifiedApps } from './api';

/** The catalogue slug a key names, if any ('zoom' in an app key for Zoom). */
export function appSlugOf(key: SharedKey): string | undefined {
  const single =
    key.type === 'skeleton'
      ? key.scope
      : key.scope.type === 'single'
        ? key.scope.single
        : undefined;
  return single?.type === 'identifiedAppSlug' ? single.identifiedAppSlug : undefined;
}

/**
 * describeKey with apps named as parents know them ('Zoom', not 'zoom'). The catalogue is only
 * fetched when one of `keys` names an app by slug; until it arrives, the slug is shown.
 */
export function useDescribeKey(keys: readonly SharedKey[]): (key: SharedKey) => string {
  const needsNames = keys.some((key) => appSlugOf(key) !== undefined);
  const apps = useIdentifiedApps({ enabled: needsNames });
  const names = appNamesOf(apps.data ?? []);
  return (key) => describeKeyNamingApps(key, names);
}
