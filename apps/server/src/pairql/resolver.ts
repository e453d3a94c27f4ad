import type {
  DashboardOperation,
  DashboardOutput,
  DashboardParsedInput,
  dashboard,
} from '@keyward/contract/dashboard';
import type {
  MacosAppOperation,
  MacosAppOutput,
  MacosAppParsedInput,
  macosApp,
} from '@keyward/contract/device';
import type {
  IosAppOperation,
  IosAppOutput,
  IosAppParsedInput,
  iosApp,
} from '@keyward/contract/ios';
import type {
  BrowserFilterOperation,
  BrowserFilterOutput,
  BrowserFilterParsedInput,
  browserFilter,
} from '@keyward/contract/browser';
import type { ContextFor } from './context.ts';

// Typed helpers for resolver files. Usage, in src/operations/dashboard/Login.ts:
//   export default dashboardResolver('Login', async (input, ctx) => { ... });
// Input, output and context types all come from the contract entry of that operation.

export interface Resolver {
  namespace: 'dashboard' | 'macos-app' | 'ios-app' | 'browser-filter';
  op: string;
  // biome-ignore lint/suspicious/noExplicitAny: the router validates input/output against the contract
  resolve: (input: any, ctx: any) => Promise<unknown>;
  /**
   * The router refuses any NUL (U+0000) in a body; an operation with this flag gets each NUL in a
   * string value replaced by U+FFFD instead (CreateKeystrokeLines, server-behaviour §4.3).
   */
  replacesNulCharacters?: boolean;
}

export function dashboardResolver<Op extends DashboardOperation>(
  op: Op,
  resolve: (
    input: DashboardParsedInput<Op>,
    ctx: ContextFor<(typeof dashboard)[Op]['auth']>,
  ) => Promise<DashboardOutput<Op>>,
): Resolver {
  return { namespace: 'dashboard', op, resolve };
}

export function deviceResolver<Op extends MacosAppOperation>(
  op: Op,
  resolve: (
    input: MacosAppParsedInput<Op>,
    ctx: ContextFor<(typeof macosApp)[Op]['auth']>,
  ) => Promise<MacosAppOutput<Op>>,
): Resolver {
  return { namespace: 'macos-app', op, resolve };
}

export function iosResolver<Op extends IosAppOperation>(
  op: Op,
  resolve: (
    input: IosAppParsedInput<Op>,
    ctx: ContextFor<(typeof iosApp)[Op]['auth']>,
  ) => Promise<IosAppOutput<Op>>,
): Resolver {
  return { namespace: 'ios-app', op, resolve };
}

export function browserResolver<Op extends BrowserFilterOperation>(
  op: Op,
  resolve: (
    input: BrowserFilterParsedInput<Op>,
    ctx: ContextFor<(typeof browserFilter)[Op]['auth']>,
  ) => Promise<BrowserFilterOutput<Op>>,
): Resolver {
  return { namespace: 'browser-filter', op, resolve };
}
