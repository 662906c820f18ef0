/**
 * "Copy video link" (the seed's copy_video_link): the original file's signed link, for VLC, mpv or any player that
 * streams over HTTP with Range. It expires as a download link does.
 */
import { toast } from 'sonner';
import type { DriveFile } from '@haul/shared';
import i18n from '../../lib/i18n';
import { copyText } from '../shares/share-format';

/** The link an outside player can stream: the original bytes, served with Range. */
export const videoLinkOf = (file: DriveFile): string => file.medias?.find((m) => m.is_origin)?.link.url || file.web_content_link;

export async function copyVideoLink(file: DriveFile): Promise<boolean> {
  const link = videoLinkOf(file);
  if (!link || !(await copyText(link))) {
    toast.error(i18n.t('share.copyFailed'));
    return false;
  }
  toast.success(i18n.t('viewer.linkCopied'));
  return true;
}
