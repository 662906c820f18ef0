/** The 403 of an allowance that ran out, its description the JSON details a limit dialog reads (seed 000 §8). */
import { limitDescription, type LimitDetails, type LimitError } from '@haul/shared';
import { HttpError } from '../http/errors.js';

export const limitError = (error: LimitError, details: LimitDetails): HttpError => new HttpError(403, error, limitDescription(details));
