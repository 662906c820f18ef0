/**
 * Where a followed cloud download's file shows once it lands (after-add.ts): opened in the viewer when "Open when
 * ready" was ticked (a folder opens as the folder, an archive on its page), else selected and scrolled into view on
 * the screen the person is on when that screen lists it (Recent, or the folder it landed in), else named in a toast
 * that leads to it. Nothing moves the person off a screen they went to meanwhile.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { DriveFile } from '@haul/shared';
import { isFolder } from '../files/files-api';
import { highlightOf } from '../files/use-highlight';
import { sceneOf } from '../viewer/viewer-address';
import { openInViewer, useViewer } from '../viewer/viewer-store';
import { archivePageOf } from '../viewer/view-kind';
import { takeLanded, useLandings } from './after-add';

/** A file's folder in the drive, as an address. */
export const folderPathOf = (f: Pick<DriveFile, 'parent_id'>) => (f.parent_id ? `/all/${f.parent_id}` : '/all');

/** Whether the screen at `pathname` lists `file`: Recent lists every new file, a folder its own. */
export const screenLists = (pathname: string, file: DriveFile) => pathname.startsWith('/recent') || pathname === folderPathOf(file);

export function LandingWatcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  here.current = location;
  const count = useLandings((s) => s.landed.length);

  useEffect(() => {
    if (!count) return;
    const landed = takeLanded();
    const { pathname, search, hash, state } = here.current;
    const show: DriveFile[] = [];
    let opened = false;
    for (const { file, open } of landed) {
      if (open && !opened) {
        opened = true;
        if (isFolder(file)) {
          void navigate(`/all/${file.id}`);
          continue;
        }
        const archive = archivePageOf(file);
        if (archive) {
          void navigate(archive);
          continue;
        }
        if (openInViewer([file], file, sceneOf(pathname))) continue;
        toast.info(t('deepLinks.noPreview', { name: file.name }));
      }
      show.push(file);
    }
    // The viewer over the screen owns the address until it closes; the rest are named in toasts then.
    const onScreen = opened || useViewer.getState().index >= 0 ? [] : show.filter((f) => screenLists(pathname, f));
    if (onScreen.length) {
      const ids = [...new Set([...highlightOf(state), ...onScreen.map((f) => f.id)])];
      void navigate({ pathname, search, hash }, { replace: true, state: { highlight: ids } });
    }
    for (const f of show.filter((x) => !onScreen.includes(x)))
      toast.success(t('deepLinks.landed', { name: f.name }), {
        action: { label: t('deepLinks.show'), onClick: () => void navigate(folderPathOf(f), { state: { highlight: [f.id] } }) },
      });
  }, [count, navigate, t]);
  return null;
}
