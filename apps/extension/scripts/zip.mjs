// A zip of a folder (archiver): each file deflated at the top of the zip, as browsers want it: Firefox loads the zip
// itself as a temporary add-on, and an unzipped folder is what Chromium's "Load unpacked" picks. Times are fixed, so
// the same files give the same zip; modes 0644 and 0755 mark entries as Unix ones, so unzip keeps UTF-8 names as they are.
import { createWriteStream, statSync } from 'node:fs';
import { ZipArchive } from 'archiver';

/** 1 January 2025, 00:00 local time: every entry gets it. */
const FIXED_TIME = new Date(2025, 0, 1);

/** Writes `dir`'s files into the zip at `out`; answers its size in bytes. */
export async function zipFolder(dir, out) {
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const file = createWriteStream(out);
  const written = new Promise((resolve, reject) => {
    file.on('close', resolve);
    file.on('error', reject);
    zip.on('error', reject);
  });
  zip.pipe(file);
  zip.directory(dir, false, (entry) => ({ ...entry, date: FIXED_TIME, mode: entry.stats?.isDirectory() ? 0o755 : 0o644 }));
  await zip.finalize();
  await written;
  return statSync(out).size;
}
