import { browserResolver } from '../../pairql/resolver.ts';
import macKeystrokeLines from '../device/CreateKeystrokeLines.ts';

// Issue 22: lines typed in pages' text fields (never password fields), when the child's keylogging
// is on. They are the Mac's keystroke lines, with the site as the app: stored, budgeted and
// reviewed exactly like them, so the Mac's resolver stores them.
const resolver = browserResolver('CreateTypedLines', async (input, ctx) => {
  await macKeystrokeLines.resolve(
    input.map((typed) => ({
      appName: typed.site,
      line: typed.line,
      filterSuspended: typed.filterSuspended,
      time: typed.typedAt,
    })),
    ctx,
  );
  return { success: true };
});

export default { ...resolver, replacesNulCharacters: true };
