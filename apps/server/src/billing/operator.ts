import type { Config } from '../config.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailService } from '../services/mail.ts';

/** Billing alerts for the operator (OPERATOR_EMAIL); unset, they are only logged. */
export async function alertOperator(
  deps: { config: Pick<Config, 'operatorEmail'>; email: EmailService; log: FastifyBaseLogger },
  alert: { parentEmail: string; message: string },
) {
  deps.log.warn(alert, `billing alert: ${alert.message}`);
  const operator = deps.config.operatorEmail;
  if (operator === undefined) return;
  try {
    await deps.email.send('billing-alert', operator, alert);
  } catch (error) {
    deps.log.error({ err: error, ...alert }, 'could not email the billing alert');
  }
}
