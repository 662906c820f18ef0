/** The command line's version: `haul --version` and the User-Agent it sends. */
export const VERSION = '0.1.0';
