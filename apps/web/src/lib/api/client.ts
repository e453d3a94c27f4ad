import type {
  DashboardInput,
  DashboardOperation,
  DashboardOutput,
} from '@keyward/contract/dashboard';
import type { PqlError, Result } from '@keyward/contract/errors';
import { isProductionBuild } from '../env';
import { isPqlError, NETWORK_ERROR_MESSAGE, toPqlError } from '../errors';
import { getSession } from '../session';
import { CLIENT_ERROR_IDS, PUBLIC_DASHBOARD_OPERATIONS } from '@keyward/contract/constants';

export function apiEndpoint(): string {
  return import.meta.env.VITE_API_ENDPOINT ?? '';
}

function failure(error: PqlError): { type: 'error'; error: PqlError } {
  return { type: 'error', error };
}

function unexpectedBody(debugMessage: string): PqlError {
  return {
    isPqlError: true,
    id: CLIENT_ERROR_IDS.unexpectedBody,
    type: 'clientError',
    debugMessage,
    showContactSupport: true,
  };
}

/** Wire-contract §2.5: a ServerPqlError body becomes the dashboard's PqlError. */
export function fromServerError(body: Record<string, unknown>): PqlError {
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  const error: PqlError = {
    isPqlError: true,
    id: String(body.id),
    type: body.type as PqlError['type'],
    debugMessage: text('debugMessage') ?? '[no debug message]',
  };
  const userMessage = text('userMessage');
  const userAction = text('userAction');
  const entityName = text('entityName');
  const tag = text('dashboardTag');
  const serverRequestId = text('requestId');
  if (userMessage !== undefined) error.userMessage = userMessage;
  if (userAction !== undefined) error.userAction = userAction;
  if (entityName !== undefined) error.entityName = entityName;
  if (tag !== undefined) error.tag = tag;
  if (serverRequestId !== undefined) error.serverRequestId = serverRequestId;
  if (typeof body.showContactSupport === 'boolean') {
    error.showContactSupport = body.showContactSupport;
  }
  return error;
}

async function send<Op extends DashboardOperation>(
  op: Op,
  input: DashboardInput<Op>,
): Promise<Result<DashboardOutput<Op>>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (!isPublicOperation(op)) {
    const token = getSession()?.token;
    if (!token) {
      return failure({
        isPqlError: true,
        id: CLIENT_ERROR_IDS.noToken,
        type: 'loggedOut',
        debugMessage: 'No parent token found',
      });
    }
    headers['X-AdminToken'] = token;
  }
  if (!isProductionBuild()) headers['X-DashboardUrl'] = window.location.origin;

  let answer: Promise<Response>;
  try {
    answer = fetch(`${apiEndpoint()}/pairql/dashboard/${op}`, {
      method: 'POST',
      headers,
      // void operations (input undefined) send no body at all
      body: input === undefined ? undefined : JSON.stringify(input),
    });
  } catch (error) {
    answer = Promise.reject(error);
  }
  return resultOf<Op>(answer);
}

/**
 * The Result of an operation's answer, or of its failed request. Also reads the answers of the
 * requests index.html starts before the app (lib/api/early-fetch.ts).
 */
export async function resultOf<Op extends DashboardOperation>(
  answer: Promise<Response>,
): Promise<Result<DashboardOutput<Op>>> {
  let response: Response;
  try {
    response = await answer;
  } catch (error) {
    return failure({
      isPqlError: true,
      id: CLIENT_ERROR_IDS.network,
      type: 'clientError',
      userMessage: NETWORK_ERROR_MESSAGE,
      debugMessage: error instanceof Error ? error.message : String(error),
    });
  }

  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failure(unexpectedBody(`Unexpected error: JSON parse error, body=${text}`));
  }

  if (response.status < 300) {
    return { type: 'success', value: json as DashboardOutput<Op> };
  }
  if (isPqlError(json)) return failure(json);
  if (typeof json === 'object' && json !== null && 'id' in json) {
    return failure(fromServerError(json as Record<string, unknown>));
  }
  return failure(unexpectedBody(`Unexpected error: status=${response.status}, body=${text}`));
}

/** The typed PairQL client. It never throws and never retries (wire-contract §2.5, §2.7). */
export async function callDashboard<Op extends DashboardOperation>(
  op: Op,
  input: DashboardInput<Op>,
): Promise<Result<DashboardOutput<Op>>> {
  let result: Result<DashboardOutput<Op>>;
  try {
    result = await send(op, input);
  } catch (error) {
    result = failure(toPqlError(error));
  }
  if (result.type === 'error' && !isProductionBuild()) {
    console.error(`[pairql] ${op} failed`, result.error);
  }
  return result;
}

function isPublicOperation(op: DashboardOperation): boolean {
  return (PUBLIC_DASHBOARD_OPERATIONS as readonly string[]).includes(op);
}
