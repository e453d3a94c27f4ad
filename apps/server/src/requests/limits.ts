import { MIN_SUSPENSION_SECONDS } from '@keyward/domain/suspension-grant';

// Server-side bounds of requests (server-behaviour §10.3 and the spec's suspension rules).

export { MIN_SUSPENSION_SECONDS };
/** The longest suspension a child may ask for or a parent may grant: one week. */
export const MAX_SUSPENSION_SECONDS = 7 * 24 * 60 * 60;
/** Bundle ids and host names are short; the columns are not meant for essays. */
export const MAX_BUNDLE_ID = 255;
export const MAX_HOSTNAME = 255;
