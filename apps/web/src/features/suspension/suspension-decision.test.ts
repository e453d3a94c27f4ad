import { describe, expect, test } from 'vitest';
import {
  canGrant,
  initialSuspensionDecision,
  rememberExtraMonitoring,
  rememberedExtraMonitoring,
  type SuspensionDecisionEvent,
  type SuspensionDecisionState,
  suspensionDecisionReducer,
  toDecideInput,
} from './suspension-decision';

const ID = '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a';
const OPTIONS = { '@60': '2x screenshots', k: 'keylogging' };

function run(state: SuspensionDecisionState, ...events: SuspensionDecisionEvent[]) {
  return events.reduce(suspensionDecisionReducer, state);
}
const fresh = () => initialSuspensionDecision(OPTIONS, undefined);

describe('starting point', () => {
  test.each<[string | undefined, string | undefined]>([
    [undefined, undefined],
    ['@60', '@60'],
    ['@30', undefined], // remembered, but not offered by this request
  ])('remembered %j → extra monitoring %j, 5 minutes', (remembered, expected) => {
    const state = initialSuspensionDecision(OPTIONS, remembered);
    expect(state).toMatchObject({ duration: 300, extraMonitoring: expected, phase: 'idle' });
  });
});

describe('starting at what the child asked (issue 32)', () => {
  test.each<[number | undefined, object]>([
    [undefined, { duration: 300, customMinutes: '' }],
    [600, { duration: 600, customMinutes: '' }],
    [900, { duration: 'custom', customMinutes: '15' }],
  ])('asked %j s → %j, and granting sends it', (requested, expected) => {
    const state = initialSuspensionDecision(OPTIONS, undefined, requested);
    expect(state).toMatchObject(expected);
    const granting = suspensionDecisionReducer(state, { type: 'grantClicked' });
    expect(toDecideInput('r', granting).decision).toMatchObject({
      case: 'accepted',
      durationInSeconds: requested ?? 300,
    });
  });
});

describe('granting', () => {
  test.each<[SuspensionDecisionEvent[], object | null]>([
    [[], { case: 'accepted', durationInSeconds: 300 }],
    [[{ type: 'durationChosen', duration: 3600 }], { case: 'accepted', durationInSeconds: 3600 }],
    [
      [
        { type: 'durationChosen', duration: 'custom' },
        { type: 'customMinutesChanged', minutes: '20' },
        { type: 'extraMonitoringChosen', option: '@60' },
      ],
      { case: 'accepted', durationInSeconds: 1200, extraMonitoring: '@60' },
    ],
    [
      [
        { type: 'durationChosen', duration: 'custom' },
        { type: 'customMinutesChanged', minutes: '1' },
      ],
      null,
    ],
    [[{ type: 'durationChosen', duration: 'custom' }], null],
  ])('%j → %j', (events, decision) => {
    const state = run(fresh(), ...events);
    expect(canGrant(state)).toBe(decision !== null);
    const granting = run(state, { type: 'grantClicked' });
    if (decision === null) {
      expect(granting.phase).toBe('idle');
    } else {
      expect(granting.phase).toBe('granting');
      expect(toDecideInput(ID, granting)).toEqual({ id: ID, decision });
    }
  });

  test('the comment is trimmed and left out when blank', () => {
    const withComment = run(
      fresh(),
      { type: 'commentChanged', comment: ' Be back by 5 ' },
      { type: 'grantClicked' },
    );
    expect(toDecideInput(ID, withComment).responseComment).toBe('Be back by 5');
    const blank = run(fresh(), { type: 'commentChanged', comment: '  ' }, { type: 'grantClicked' });
    expect(toDecideInput(ID, blank)).not.toHaveProperty('responseComment');
  });
});

describe('denying and outcomes', () => {
  test('deny sends rejected with the comment', () => {
    const state = run(
      fresh(),
      { type: 'extraMonitoringChosen', option: 'k' },
      { type: 'commentChanged', comment: 'Homework first' },
      { type: 'denyClicked' },
    );
    expect(toDecideInput(ID, state)).toEqual({
      id: ID,
      decision: { case: 'rejected' },
      responseComment: 'Homework first',
    });
  });

  test('a failure can be retried; a decided request cannot be decided again', () => {
    const failed = run(fresh(), { type: 'denyClicked' }, { type: 'decisionFailed', message: 'x' });
    expect(failed).toMatchObject({ phase: 'failed', error: 'x' });
    const granted = run(failed, { type: 'grantClicked' }, { type: 'decisionSucceeded' });
    expect(granted.phase).toBe('decided');
    expect(run(granted, { type: 'denyClicked' }).phase).toBe('decided');
    expect(run(granted, { type: 'grantClicked' }).phase).toBe('decided');
  });

  test('while a decision is under way, another click is ignored', () => {
    const state = run(fresh(), { type: 'grantClicked' }, { type: 'denyClicked' });
    expect(state.phase).toBe('granting');
  });
});

describe('remembered per child', () => {
  test('stores, reads back and forgets the choice per child', () => {
    const EMMA = 'emma-id';
    const LEO = 'leo-id';
    rememberExtraMonitoring(EMMA, '@60');
    expect(rememberedExtraMonitoring(EMMA)).toBe('@60');
    expect(rememberedExtraMonitoring(LEO)).toBeUndefined();
    rememberExtraMonitoring(EMMA, undefined);
    expect(rememberedExtraMonitoring(EMMA)).toBeUndefined();
  });
});
