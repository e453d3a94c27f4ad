import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// issue 20: on a slow link the first paint is a loading state in the HTML itself, not a blank page
const html = readFileSync(path.join(import.meta.dirname, '..', 'index.html'), 'utf8');

describe('index.html', () => {
  const page = new DOMParser().parseFromString(html, 'text/html');
  const root = page.getElementById('root');

  test('#root holds a loading state the app replaces on its first render', () => {
    const status = root?.querySelector('[role="status"]');
    expect(status?.textContent).toBe('Loading Keyward…');
    // styled inline: the stylesheet arrives with the app
    expect(status?.getAttribute('style')).toContain('min-height:100vh');
  });

  test('the loading state asks for nothing and stays tiny', () => {
    expect(root?.querySelectorAll('[src], [href], link, script, img, style')).toHaveLength(0);
    expect(root?.innerHTML.length).toBeLessThan(400);
  });
});
