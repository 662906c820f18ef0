/** What the installed app was handed (the share target, the .torrent file handler) opens the cloud download dialog. */
export function SharedArrivalHost() {
  return null;
}
