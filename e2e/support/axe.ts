import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// Issue 14: axe-core finds no serious or critical violation on any built page, at a desktop and a
// phone width. One check for every file that looks (accessibility, iOS, the demo family's pages).

export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Runs axe over the page; fails (softly) listing every serious or critical violation with its elements. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const report = serious.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${label}: [${violation.impact}] ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`,
    ),
  );
  expect.soft(report, report.join('\n')).toEqual([]);
  return report;
}
