import type { BlockedAppInput, SaveUserInput } from '@keyward/contract/shared';
import {
  duplicateBlockedAppProblem,
  MAX_SCREENSHOTS_RESOLUTION,
  MIN_SCREENSHOTS_RESOLUTION,
  screenshotsResolutionProblem,
} from '@keyward/domain/child-settings';
import {
  alertCategoryLabel,
  BUILT_IN_ALERT_CATEGORIES,
  cleanCustomAlertWords,
  customAlertWordsProblem,
} from '@keyward/domain/alert-categories';
import { monitoringDecreases } from '@keyward/domain/monitoring';
import type { Transaction } from 'kysely';
import { storedAlertCategories } from '../../activity/alerts.ts';
import { isSameSet } from '../../children/lists.ts';
import type { Database } from '../../db/schema.ts';
import { addMs, fromDbBool, fromDbJson, toDbBool, toDbJson, toDbTime } from '../../db/values.ts';
import type { ParentContext } from '../../pairql/context.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { newToken } from '../../services/tokens.ts';
import { isAlreadyCreated, ownedChild, selectableKeychains } from '../ownership.ts';
import { asksForWhatIsStored, createdWithOtherContent, type StoredAs } from '../repeated-create.ts';

const MAX_NAME = 100;
const MAX_BLOCKED_APP_IDENTIFIER = 255;
const MIN_FREQUENCY_SECONDS = 10;
const MAX_FREQUENCY_SECONDS = 24 * 60 * 60;

// server-behaviour §3.1 and wire-contract §3.6 (client-chosen id; issue 20: a create sent again
// with the id of the parent's own child is answered as done, the child as the first save left it). Everything is checked before
// the one transaction that writes the child, its keychain assignments and its blocked apps.
/** What a repeated create of a child must ask for again to be the same create (issue 31). */
const CHILD_COLUMNS: Record<string, StoredAs> = {
  name: 'text',
  keylogging_enabled: 'bool',
  screenshots_enabled: 'bool',
  screenshots_resolution: 'number',
  screenshots_frequency: 'number',
  show_suspension_activity: 'bool',
  downtime: 'json',
};

export default dashboardResolver('SaveUser', async (input, ctx) => {
  const name = validName(input.name);
  validateMonitoring(input);
  const blockedApps = input.blockedApps && validBlockedApps(input.blockedApps);
  const alertCategories = input.alertCategories && validAlertCategories(input.alertCategories);
  const alertWords = input.alertWords && validAlertWords(input.alertWords);
  const keychains = uniqueById(input.keychains);
  const keychainRows = await selectableKeychains(
    ctx.db,
    ctx.parentId,
    keychains.map((k) => k.id),
  );
  const keychainNames = new Map(keychainRows.map((row) => [row.id, row.name]));

  const before = input.isNew ? undefined : await ownedChild(ctx.db, ctx.parentId, input.id);
  const now = toDbTime(ctx.clock.now());
  const settings = {
    name,
    keylogging_enabled: toDbBool(input.keyloggingEnabled),
    screenshots_enabled: toDbBool(input.screenshotsEnabled),
    screenshots_resolution: input.screenshotsResolution,
    screenshots_frequency: input.screenshotsFrequency,
    show_suspension_activity: toDbBool(input.showSuspensionActivity),
    downtime: input.downtime ? toDbJson(input.downtime) : null,
    updated_at: now,
    // issue 24: absent ⇒ unchanged (a new child gets the column defaults: self-harm on)
    ...(alertCategories ? { alert_categories: toDbJson(alertCategories) } : {}),
    ...(alertWords ? { alert_words: toDbJson(alertWords) } : {}),
  };

  const isRepeated = await ctx.db.transaction().execute(async (trx) => {
    if (before === undefined) {
      const taken = await trx
        .selectFrom('children')
        .select('id')
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (taken && (await isAlreadyCreated(() => ownedChild(trx, ctx.parentId, input.id)))) {
        // issue 31: the same create sent again, or another create on a taken id
        const stored = await trx
          .selectFrom('children')
          .selectAll()
          .where('id', '=', input.id)
          .executeTakeFirstOrThrow();
        if (!asksForWhatIsStored(stored, settings, CHILD_COLUMNS)) {
          throw createdWithOtherContent('Child', input.id);
        }
        return true;
      }
      if (taken) {
        throw badRequest(
          'c745b03f',
          `Child ${input.id} already exists`,
          'This child already exists.',
        );
      }
      await trx
        .insertInto('children')
        .values({ id: input.id, parent_id: ctx.parentId, created_at: now, ...settings })
        .execute();
    } else {
      await trx
        .updateTable('children')
        .set(settings)
        .where('id', '=', before.id)
        .where('parent_id', '=', ctx.parentId)
        .execute();
    }

    const currentAssignments = await trx
      .selectFrom('child_keychains')
      .select(['keychain_id', 'schedule'])
      .where('child_id', '=', input.id)
      .execute();
    const keychainsChanged = !isSameSet(
      currentAssignments.map((a) => ({ id: a.keychain_id, schedule: fromDbJson(a.schedule) })),
      keychains.map((k) => ({ id: k.id, schedule: k.schedule })),
    );
    if (keychainsChanged) {
      await trx.deleteFrom('child_keychains').where('child_id', '=', input.id).execute();
      if (keychains.length > 0) {
        await trx
          .insertInto('child_keychains')
          .values(
            keychains.map((k) => ({
              id: newToken(),
              child_id: input.id,
              keychain_id: k.id,
              schedule: k.schedule ? toDbJson(k.schedule) : null,
              created_at: now,
            })),
          )
          .execute();
      }
    }

    let blockedAppsChanged = false;
    if (blockedApps !== undefined) {
      const current = await trx
        .selectFrom('blocked_mac_apps')
        .select(['id', 'identifier', 'schedule'])
        .where('child_id', '=', input.id)
        .execute();
      blockedAppsChanged = !isSameSet(
        current.map((b) => ({
          id: b.id,
          identifier: b.identifier,
          schedule: fromDbJson(b.schedule),
        })),
        blockedApps,
      );
      if (blockedAppsChanged) {
        await replaceBlockedApps(trx, input.id, blockedApps, ctx.clock.now());
      }
    }
    await recordEvents(
      { ...ctx, db: trx },
      { input, name, before, keychainNames, keychainsChanged, blockedAppsChanged },
    );
    return false;
  });
  if (isRepeated) return { success: true };

  await ctx.services.push.toChildren([input.id], { case: 'userUpdated' });
  return { success: true };
});

type Trx = Transaction<Database>;
type ChildRow = Awaited<ReturnType<typeof ownedChild>>;

async function replaceBlockedApps(trx: Trx, childId: string, apps: BlockedAppInput[], now: Date) {
  await trx.deleteFrom('blocked_mac_apps').where('child_id', '=', childId).execute();
  if (apps.length === 0) return;
  const taken = await trx
    .selectFrom('blocked_mac_apps')
    .select('id')
    .where(
      'id',
      'in',
      apps.map((app) => app.id),
    )
    .executeTakeFirst();
  if (taken) {
    throw badRequest(
      'fa2fe795',
      `Blocked app id ${taken.id} is already used`,
      'The blocked apps could not be saved.',
    );
  }
  await trx
    .insertInto('blocked_mac_apps')
    .values(
      // one millisecond apart, so reading them back in created_at order keeps the parent's order
      apps.map((app, i) => ({
        id: app.id,
        child_id: childId,
        identifier: app.identifier,
        schedule: app.schedule ? toDbJson(app.schedule) : null,
        created_at: toDbTime(addMs(now, i)),
        updated_at: toDbTime(now),
      })),
    )
    .execute();
}

interface SaveOutcome {
  input: SaveUserInput;
  name: string;
  before: ChildRow | undefined;
  keychainNames: Map<string, string>;
  keychainsChanged: boolean;
  blockedAppsChanged: boolean;
}

async function recordEvents(ctx: ParentContext, outcome: SaveOutcome) {
  const { input, name, before } = outcome;
  const child = `child: ${name}`;
  if (before === undefined) {
    await recordSecurityEvent(ctx, ctx.parentId, 'childAdded', `name: ${name}`);
  } else {
    const decreases = monitoringDecreases(
      {
        keyloggingEnabled: fromDbBool(before.keylogging_enabled),
        screenshotsEnabled: fromDbBool(before.screenshots_enabled),
        screenshotsResolution: before.screenshots_resolution,
        screenshotsFrequency: before.screenshots_frequency,
        showSuspensionActivity: fromDbBool(before.show_suspension_activity),
      },
      input,
    );
    // issue 24: an alert category turned off lowers monitoring too
    if (input.alertCategories) {
      const kept = new Set(input.alertCategories);
      for (const category of storedAlertCategories(before.alert_categories)) {
        if (!kept.has(category)) decreases.push(`alerts off: ${alertCategoryLabel(category)}`);
      }
    }
    if (decreases.length > 0) {
      await recordSecurityEvent(
        ctx,
        ctx.parentId,
        'monitoringDecreased',
        `${child}; ${decreases.join('; ')}`,
      );
    }
  }
  if (outcome.keychainsChanged) {
    const names = input.keychains.map((k) => outcome.keychainNames.get(k.id) ?? k.id);
    const list = names.length > 0 ? [...new Set(names)].join(', ') : 'none';
    await recordSecurityEvent(
      ctx,
      ctx.parentId,
      'keychainsChanged',
      `${child}; keychains: ${list}`,
    );
  }
  if (outcome.blockedAppsChanged) {
    const list = (input.blockedApps ?? []).map((app) => app.identifier.trim()).join(', ') || 'none';
    await recordSecurityEvent(
      ctx,
      ctx.parentId,
      'blockedAppsChanged',
      `${child}; blocked apps: ${list}`,
    );
  }
}

function validName(raw: string): string {
  const name = raw.trim();
  if (name === '') {
    throw badRequest('314085d1', 'Child name is blank', 'Please enter a name for your child.');
  }
  if (name.length > MAX_NAME) {
    throw badRequest(
      '4428eb26',
      `Child name is longer than ${MAX_NAME} characters`,
      `A child's name can be at most ${MAX_NAME} characters.`,
    );
  }
  return name;
}

function validateMonitoring(input: SaveUserInput) {
  const frequency = input.screenshotsFrequency;
  if (
    !Number.isInteger(frequency) ||
    frequency < MIN_FREQUENCY_SECONDS ||
    frequency > MAX_FREQUENCY_SECONDS
  ) {
    throw badRequest(
      '612235f6',
      `screenshotsFrequency ${frequency} is not a whole number of seconds from ${MIN_FREQUENCY_SECONDS} to ${MAX_FREQUENCY_SECONDS}`,
      `Screenshots can be taken at most every ${MIN_FREQUENCY_SECONDS} seconds.`,
    );
  }
  // The same range and words as the child editor (domain child-settings).
  const resolution = input.screenshotsResolution;
  const resolutionProblem = screenshotsResolutionProblem(resolution);
  if (resolutionProblem) {
    throw badRequest(
      '4df45f98',
      `screenshotsResolution ${resolution} is not a whole number of pixels from ${MIN_SCREENSHOTS_RESOLUTION} to ${MAX_SCREENSHOTS_RESOLUTION}`,
      resolutionProblem,
    );
  }
}

function validBlockedApps(apps: BlockedAppInput[]): BlockedAppInput[] {
  const ids = new Set<string>();
  const valid = apps.map((app) => {
    const identifier = app.identifier.trim();
    if (identifier === '' || identifier.length > MAX_BLOCKED_APP_IDENTIFIER) {
      throw badRequest(
        '3a3f3b86',
        `Blocked app identifier is blank or longer than ${MAX_BLOCKED_APP_IDENTIFIER} characters`,
        'Please enter an app name or bundle id for every blocked app.',
      );
    }
    if (ids.has(app.id)) {
      throw badRequest(
        'fa2fe795',
        `Blocked app id ${app.id} appears twice`,
        'The blocked apps could not be saved.',
      );
    }
    ids.add(app.id);
    return app.schedule
      ? { id: app.id, identifier, schedule: app.schedule }
      : { id: app.id, identifier };
  });
  // One app blocked twice (any letter case) would leave the parent two schedules to reconcile.
  const duplicate = duplicateBlockedAppProblem(valid.map((app) => app.identifier));
  if (duplicate) {
    throw badRequest('b7d4e2a1', 'Blocked app identifier appears twice', duplicate);
  }
  return valid;
}

function validAlertCategories(categories: string[]): string[] {
  const unknown = categories.find(
    (category) => !(BUILT_IN_ALERT_CATEGORIES as readonly string[]).includes(category),
  );
  if (unknown !== undefined) {
    throw badRequest(
      'a24c7e10',
      `Unknown alert category ${unknown}`,
      'The alerts could not be saved. Reload the page and try again.',
    );
  }
  return BUILT_IN_ALERT_CATEGORIES.filter((category) => categories.includes(category));
}

function validAlertWords(words: string[]): string[] {
  const cleaned = cleanCustomAlertWords(words);
  const problem = customAlertWordsProblem(cleaned);
  if (problem) throw badRequest('a24c7e11', `Alert words: ${problem}`, problem);
  return cleaned;
}

function uniqueById<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}
