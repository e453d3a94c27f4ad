import { render } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { AnnouncementText } from './announcement-html';

const html = (source: string) => render(<AnnouncementText html={source} />).container.innerHTML;

describe('AnnouncementText', () => {
  test.each([
    ['plain text', 'New keychains are here', 'New keychains are here'],
    [
      'emphasis',
      '<b>New:</b> <i>weekly</i> reports',
      '<strong>New:</strong> <em>weekly</em> reports',
    ],
    ['line break', 'one<br>two', 'one<br>two'],
    [
      'safe link',
      '<a href="https://example.com/x">read</a>',
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer" class="font-semibold underline">read</a>',
    ],
    ['javascript link keeps only its text', '<a href="javascript:alert(1)">click</a>', 'click'],
    ['script dropped', 'hi<script>alert(1)</script>', 'hi'],
    ['event handlers dropped', '<img src=x onerror="alert(1)">ok', 'ok'],
    ['unknown tags keep their text', '<div><span style="color:red">red</span></div>', 'red'],
    ['entities stay text', '&lt;b&gt;not bold&lt;/b&gt;', '&lt;b&gt;not bold&lt;/b&gt;'],
  ])('%s', (_name, source, expected) => {
    expect(html(source)).toBe(expected);
  });
});
