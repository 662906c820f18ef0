/** The digits of a mailed code out of whatever was typed or pasted. */

export const CODE_LENGTH = 6;

/**
 * A pasted mail line ("Your code: 123 456") gives its 6-digit group when it has one, so digits elsewhere in the text
 * (a year, a count of minutes) are not taken for the code; anything else keeps its first six digits.
 */
export function codeFromText(text: string): string {
  const group = /(?<!\d)(\d{3})[\s-]?(\d{3})(?!\d)/.exec(text);
  if (group) return group[1]! + group[2]!;
  return text.replace(/\D/g, '').slice(0, CODE_LENGTH);
}
