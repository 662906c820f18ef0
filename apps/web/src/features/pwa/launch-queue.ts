/** Files the operating system opens with the installed app (the manifest's file_handlers: .torrent). */

/** What the File Handling API hands over (Chromium; not in TypeScript's DOM types yet). */
interface LaunchParams {
  files?: readonly { getFile: () => Promise<File> }[];
}
interface LaunchQueue {
  setConsumer: (consumer: (params: LaunchParams) => void | Promise<void>) => void;
}

/** Calls `open` with the first file of each launch, queued ones included; nothing where the browser has no launch queue. */
export function consumeLaunchedFiles(open: (file: File) => void): void {
  const queue = (window as { launchQueue?: LaunchQueue }).launchQueue;
  queue?.setConsumer(async (params) => {
    const handle = params.files?.[0];
    if (handle) open(await handle.getFile());
  });
}
