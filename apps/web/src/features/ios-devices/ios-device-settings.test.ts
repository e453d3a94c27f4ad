import { describe, expect, test } from 'vitest';
import {
  canAddDomainInput,
  canSaveSettings,
  hasSettingsChanged,
  type IosDeviceSettingsEvent,
  type IosDeviceSettingsState,
  initialIosDeviceSettings,
  iosDeviceSettingsReducer,
  showsDomains,
  toUpdateIosDeviceInput,
  WEB_POLICIES,
} from './ios-device-settings';
import { ADS, DEVICE_ID, deviceOf, GAMES, SOCIAL } from './test-fixtures';

const run = (events: IosDeviceSettingsEvent[], start = initialIosDeviceSettings(deviceOf())) =>
  events.reduce<IosDeviceSettingsState>(iosDeviceSettingsReducer, start);

const typed = (value: string): IosDeviceSettingsEvent[] => [
  { type: 'domainInputChanged', value },
  { type: 'domainAdded' },
];

describe('iOS device settings', () => {
  test('start from the device, unchanged: Save settings is off', () => {
    const state = run([]);
    expect(state.draft).toEqual({
      enabledBlockGroups: [ADS, GAMES, SOCIAL],
      webPolicy: 'blockAll',
      webPolicyDomains: [],
    });
    expect(hasSettingsChanged(state)).toBe(false);
    expect(canSaveSettings(state)).toBe(false);
  });

  test('the web policies in the spec order, blockAll first as the default', () => {
    expect(WEB_POLICIES.map((p) => p.policy)).toEqual([
      'blockAll',
      'blockAllExcept',
      'blockAdult',
      'blockAdultAnd',
      'allowAll',
    ]);
  });

  test.each<[string, IosDeviceSettingsEvent[], boolean]>([
    ['a group turned off', [{ type: 'blockGroupToggled', groupId: GAMES }], true],
    [
      'a group turned off and on again',
      [
        { type: 'blockGroupToggled', groupId: GAMES },
        { type: 'blockGroupToggled', groupId: GAMES },
      ],
      false,
    ],
    ['another policy', [{ type: 'webPolicyChosen', policy: 'allowAll' }], true],
    [
      'the same policy chosen again',
      [
        { type: 'webPolicyChosen', policy: 'allowAll' },
        { type: 'webPolicyChosen', policy: 'blockAll' },
      ],
      false,
    ],
    ['a domain added', typed('khanacademy.org'), true],
    ['only typing a domain', [{ type: 'domainInputChanged', value: 'x.org' }], false],
  ])('%s → changed: %s', (_, events, changed) => {
    expect(hasSettingsChanged(run(events))).toBe(changed);
  });

  test('domain list only for blockAllExcept and blockAdultAnd', () => {
    expect(
      WEB_POLICIES.filter((p) =>
        showsDomains(run([{ type: 'webPolicyChosen', policy: p.policy }])),
      ).map((p) => p.policy),
    ).toEqual(['blockAllExcept', 'blockAdultAnd']);
  });

  test.each<[string, string, boolean]>([
    ['a new domain', 'wikipedia.org', true],
    ['blank', '   ', false],
    ['empty', '', false],
    ['a duplicate', 'khanacademy.org', false],
    ['a duplicate in capitals with spaces', '  KhanAcademy.ORG ', false],
  ])('Add is enabled for %s: %s', (_, input, enabled) => {
    const state = run([...typed('khanacademy.org'), { type: 'domainInputChanged', value: input }]);
    expect(canAddDomainInput(state)).toBe(enabled);
    const after = iosDeviceSettingsReducer(state, { type: 'domainAdded' });
    expect(after.draft.webPolicyDomains).toEqual(
      enabled ? ['khanacademy.org', input.trim().toLowerCase()] : ['khanacademy.org'],
    );
  });

  // issue 20: the key wizard's address rules
  test.each<[string, string]>([
    ['https://Wikipedia.org/wiki/Cat', 'wikipedia.org'],
    ['www.scratch.mit.edu', 'scratch.mit.edu'],
    ['HTTP://BBC.co.uk:443/news?x=1', 'bbc.co.uk'],
  ])('%j is added as %j', (input, domain) => {
    const state = run(typed(input));
    expect(state.draft.webPolicyDomains).toEqual([domain]);
    expect(state.domainInput).toBe('');
  });

  test("what is not a website stays in the field with the wizard's words until edited", () => {
    const refused = run(typed('wikipedia'));
    expect(refused.draft.webPolicyDomains).toEqual([]);
    expect(refused.domainInput).toBe('wikipedia');
    expect(refused.domainError).toBe("'wikipedia' is not a valid website address.");
    const editing = iosDeviceSettingsReducer(refused, {
      type: 'domainInputChanged',
      value: 'wikipedia.org',
    });
    expect(editing.domainError).toBeUndefined();
    expect(
      iosDeviceSettingsReducer(editing, { type: 'domainAdded' }).draft.webPolicyDomains,
    ).toEqual(['wikipedia.org']);
  });

  test('domains are added one at a time, trimmed and lowercased, and removed', () => {
    const state = run([
      { type: 'webPolicyChosen', policy: 'blockAllExcept' },
      ...typed(' KhanAcademy.org '),
      ...typed('wikipedia.org'),
      ...typed('scratch.mit.edu'),
      { type: 'domainRemoved', domain: 'wikipedia.org' },
    ]);
    expect(state.domainInput).toBe('');
    expect(toUpdateIosDeviceInput(DEVICE_ID, state)).toEqual({
      deviceId: DEVICE_ID,
      enabledBlockGroups: [ADS, GAMES, SOCIAL],
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org', 'scratch.mit.edu'],
    });
  });

  test('saving: pending blocks a second save; success makes the draft the saved state', () => {
    const changed = run([{ type: 'blockGroupToggled', groupId: ADS }]);
    const saving = iosDeviceSettingsReducer(changed, { type: 'saveClicked' });
    expect(saving.isSaving).toBe(true);
    expect(canSaveSettings(saving)).toBe(false);
    const failed = iosDeviceSettingsReducer(saving, { type: 'saveFailed' });
    expect(canSaveSettings(failed)).toBe(true);
    const saved = iosDeviceSettingsReducer(saving, { type: 'saveSucceeded' });
    expect(saved.saved.enabledBlockGroups).toEqual([GAMES, SOCIAL]);
    expect(hasSettingsChanged(saved)).toBe(false);
  });

  test('saveClicked with nothing changed does nothing; discarding restores the saved state', () => {
    const start = run([]);
    expect(iosDeviceSettingsReducer(start, { type: 'saveClicked' })).toBe(start);
    const discarded = run([
      { type: 'webPolicyChosen', policy: 'allowAll' },
      { type: 'domainInputChanged', value: 'x.org' },
      { type: 'changesDiscarded' },
    ]);
    expect(discarded.draft).toEqual(start.draft);
    expect(discarded.domainInput).toBe('');
  });
});
