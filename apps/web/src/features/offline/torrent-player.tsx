/**
 * Play while it downloads: a song or video of a torrent still downloading, played from the pieces already there (the
 * server waits for those a seek needs, and asks for them first). Opened from the task's row in the transfer list.
 */
import './torrent-player.css';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { Frame } from '../../app/dialogs/dialog-frame';
import { errorMessage } from '../../lib/error-message';
import { listPlayableTaskFiles, type PlayableTaskFile } from './offline-api';

export function TorrentPlayerDialog({ task }: { task: DriveTask }) {
  const { t, i18n } = useTranslation();
  const [files, setFiles] = useState<PlayableTaskFile[] | null>(null);
  const [error, setError] = useState('');
  const [index, setIndex] = useState<number | null>(null);
  useEffect(() => {
    let gone = false;
    let loaded = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      listPlayableTaskFiles(task.id).then(
        (list) => {
          if (gone) return;
          loaded = true;
          // How much has arrived moves on; the links stay the ones first given, so playback is not restarted.
          setFiles((before) => list.map((f) => ({ ...f, url: before?.find((b) => b.index === f.index)?.url ?? f.url })));
          setIndex((i) => i ?? list[0]?.index ?? null);
          timer = setTimeout(() => void load(), 5000);
        },
        // Finished meanwhile (409): what was shown goes on playing, from the store.
        (err: unknown) => !gone && !loaded && setError(errorMessage(err) || t('cloud.playFailed')),
      );
    void load();
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [task.id, t]);
  const file = files?.find((f) => f.index === index);

  return (
    <Frame title={t('cloud.playTitle', { name: task.name })} wide className="torrent-player">
      {error ? (
        <p role="alert">{error}</p>
      ) : !files ? (
        <p className="muted">{t('cloud.playLoading')}</p>
      ) : files.length === 0 ? (
        <p className="muted">{t('cloud.playNone')}</p>
      ) : (
        <>
          {files.length > 1 && (
            <label className="field">
              <span>{t('cloud.playFile')}</span>
              <select value={index ?? ''} onChange={(e) => setIndex(Number(e.target.value))}>
                {files.map((f) => (
                  <option key={f.index} value={f.index}>
                    {f.path} ({Math.floor((Number(f.received) * 100) / Math.max(1, Number(f.size)))}%)
                  </option>
                ))}
              </select>
            </label>
          )}
          {file &&
            (file.kind === 'video' ? (
              <video key={file.url} src={file.url} controls autoPlay playsInline aria-label={file.name} className="torrent-player-media" />
            ) : (
              <audio key={file.url} src={file.url} controls autoPlay aria-label={file.name} className="torrent-player-media" />
            ))}
          <p className="muted">{file && t('cloud.playNote', { received: formatSize(Number(file.received), 1, i18n.language), size: formatSize(Number(file.size), 1, i18n.language) })}</p>
        </>
      )}
    </Frame>
  );
}
