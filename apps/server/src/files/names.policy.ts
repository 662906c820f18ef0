/** Name checks shared by every call that names a file. */
import { checkName, NAME_PROBLEM_TEXT } from '@haul/shared';
import { badInput } from '../http/errors.js';

/** The NFC form of a valid name, or a 400 saying what is wrong. */
export function validName(raw: unknown): string {
  if (typeof raw !== 'string') throw badInput('name must be a string.');
  const { name, problem } = checkName(raw);
  if (problem) throw badInput(NAME_PROBLEM_TEXT[problem]);
  return name;
}
