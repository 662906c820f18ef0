/**
 * A selection (or a share, for its visitors) downloaded as one zip: the server answers a signed link and the zip's
 * size; a zip the month's allowance cannot hold opens the limit dialog here instead of the browser's error page.
 */
import { ZIP_MAX_IDS } from '@haul/shared/plain';
import i18n from 'i18next';
import { toast } from 'sonner';
import { haul } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { downloadFits } from '../limits/download-check';
import { shareZipLink, type ShareAccess } from '../shares/shares-api';
import { clickDownload } from './file-mutations';

type ZipLink = { url: string; name: string; size: string };

async function deliver(make: () => Promise<ZipLink>): Promise<void> {
  try {
    const link = await make();
    if (!(await downloadFits(Number(link.size)))) return;
    toast.success(i18n.t('zip.started', { name: link.name }));
    clickDownload(link.url, link.name);
  } catch (err) {
    toast.error(errorMessage(err) || i18n.t('files.cannotDownload'));
  }
}

/** Too many items for one link: said before asking the server. */
function tooMany(count: number): boolean {
  if (count <= ZIP_MAX_IDS) return false;
  toast.error(i18n.t('zip.tooMany', { max: ZIP_MAX_IDS }));
  return true;
}

/** The caller's files and folders as one zip. */
export async function downloadZip(ids: string[]): Promise<void> {
  if (tooMany(ids.length)) return;
  await deliver(() => haul.call('createZipLink', { body: { ids } }));
}

/** A share as one zip: all of it when `ids` is empty, else those items of it. */
export async function downloadShareZip(access: ShareAccess, ids: string[]): Promise<void> {
  if (tooMany(ids.length)) return;
  await deliver(() => shareZipLink(access, ids));
}
