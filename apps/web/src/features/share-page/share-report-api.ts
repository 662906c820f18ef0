/** A visitor's report of a share to the operator. */
import { haul } from '../../lib/api-client';
import type { ReportBody } from './report-form';

/** Sends the report; signed in or not (a token close to expiry is refreshed first, so a signed-in reporter is known). */
export async function sendShareReport(body: ReportBody): Promise<{ id: string }> {
  await haul.token().catch(() => null);
  return haul.call('reportShare', { body });
}
