/** The `params` column of files, tasks and events: a JSON object of strings, read leniently (a bad one reads as none). */
export function parseParams(json: string): Record<string, string> {
  try {
    const v = JSON.parse(json);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
