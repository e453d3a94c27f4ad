import { type APIRequestContext, expect, type Page } from '@playwright/test';

/**
 * A dashboard operation called with the signed-in page's token, as the dashboard calls it; the
 * answer's JSON, after checking it is a 200. `data` is the operation's input (a bare id is a JSON
 * string too); none for an operation without input.
 */
export async function dashboardCall(
  page: Page,
  request: APIRequestContext,
  op: string,
  data?: unknown,
) {
  const token = await page.evaluate(() => localStorage.getItem('admin_token'));
  const response = await request.post(`/pairql/dashboard/${op}`, {
    headers: {
      'x-admintoken': token ?? '',
      ...(data === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(data === undefined ? {} : { data: JSON.stringify(data) }),
  });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}
