/** The API's error object as a thrown value: the client's own class, so `instanceof` holds for every call's errors. */
import { isApiError } from '@haul/client';

export { ApiError, isApiError, LOCAL_ERROR } from '@haul/client';

/** A refusal of the proof itself (a wrong password or code, or too many tries), to show at its field, not the form. */
export const isPasswordRefusal = (err: unknown) => isApiError(err, 'invalid_grant') || isApiError(err, 'too_many_requests');
