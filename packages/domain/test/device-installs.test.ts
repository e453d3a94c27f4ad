import { describe, expect, test } from 'vitest';
import {
  INSTALL_OPTIONS,
  type InstallTarget,
  installOptionInWords,
} from '../src/device-installs.ts';

describe('what each kind of device can really install (issue 32)', () => {
  test.each<[InstallTarget, string[]]>([
    ['mac', ['keywardForChrome', 'referenceMacApp']],
    ['ios', ['referenceIosApp']],
    ['chrome', ['keywardForChrome']],
  ])('%s → %j', (target, ids) => {
    expect(INSTALL_OPTIONS[target].map((option) => option.id)).toEqual(ids);
  });

  test('no option promises a Keyward download that does not exist; each says its limits', () => {
    for (const options of Object.values(INSTALL_OPTIONS)) {
      for (const option of options) {
        expect(option.limits.length).toBeGreaterThan(20);
        expect(installOptionInWords(option)).not.toMatch(/Keyward (Mac|iOS) app/);
      }
    }
    expect(installOptionInWords(INSTALL_OPTIONS.mac[1]!)).toMatch(/no download from Keyward/);
  });
});
