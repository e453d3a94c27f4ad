import type { z } from 'zod';

/**
 * `none` = no auth header; `parent` = `X-AdminToken`; `device` = the Mac's `X-UserToken`;
 * `iosDevice` = the iOS app's `X-DeviceToken`; `browser` = Keyward for Chrome's `X-BrowserToken`.
 */
export type AuthMode = 'none' | 'parent' | 'device' | 'iosDevice' | 'browser';

export interface OperationDef {
  auth: AuthMode;
  /** `null` = void operation: the request has no body. */
  input: z.ZodType | null;
  output: z.ZodType;
}

/** What a caller sends (`undefined` for a void operation). */
export type InputOf<D extends OperationDef> = D['input'] extends z.ZodType
  ? z.input<D['input']>
  : undefined;

/** What a resolver receives after parsing (lowercased UUIDs, `null` optionals dropped). */
export type ParsedInputOf<D extends OperationDef> = D['input'] extends z.ZodType
  ? z.output<D['input']>
  : undefined;

/** What a resolver returns and what the client receives. */
export type OutputOf<D extends OperationDef> = z.input<D['output']>;
