/** A person-readable name for a session's device, from what it called itself or its browser's user agent. */
import Bowser from 'bowser';

export function deviceName(userAgent: string, given = ''): string {
  if (given) return given;
  if (!userAgent) return 'Unknown device';
  // The command line says who it is: "haul-cli/1.0.0".
  if (/^haul-cli\b/i.test(userAgent)) return 'haul command line';
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name || os.name || userAgent.slice(0, 60);
}
