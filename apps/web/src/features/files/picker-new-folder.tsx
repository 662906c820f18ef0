/**
 * "New folder" inside a folder picker (move, copy, save from a share, cloud download): the destination a person has in
 * mind often does not exist yet, and closing the picker to make it would lose what they were doing.
 */
import './picker-new-folder.css';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DriveFile } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { Icon } from '../../components/icon';
import { createFolder, nameProblem } from './file-mutations';

/**
 * For the dialog around a picker (Radix closes on Escape before the field hears it): Escape in the name field leaves
 * the field, not the dialog.
 */
export function escapeLeavesField(e: globalThis.KeyboardEvent): void {
  if (e.target instanceof Element && e.target.closest('.picker-new')) e.preventDefault();
}

/** Makes a folder in `parentId` (the folder the picker shows) and hands it to `onMade`, which chooses it. */
export function PickerNewFolder({ parentId, onMade }: { parentId: string; onMade: (folder: DriveFile) => void }) {
  const { t } = useTranslation();
  // null: the button; a string: the name being typed.
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Another folder shown: a half-typed name was meant for the one left.
  useEffect(() => {
    setName(null);
    setError('');
  }, [parentId]);

  if (name === null)
    return (
      <button type="button" className="btn small picker-new-btn" onClick={() => setName(t('files.newFolderName'))}>
        <Icon name="plus" size={16} />
        {t('files.newFolder')}
      </button>
    );

  const create = async () => {
    const problem = nameProblem(name);
    if (problem) return setError(problem);
    setBusy(true);
    const made = await createFolder(parentId, name);
    setBusy(false);
    // A failure has had its toast; the name stays to try again.
    if (!made) return;
    setName(null);
    onMade(made);
  };
  // Not a <form>: the cloud download dialog holds the picker inside its own form, and forms do not nest.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (!busy) void create();
    } else if (e.key === 'Escape') {
      setName(null);
    }
  };
  return (
    <div className="picker-new" role="group" aria-label={t('files.newFolder')}>
      <div className="picker-new-row">
        <input
          autoFocus
          ref={(el) => {
            if (el && !el.dataset.selected) {
              el.dataset.selected = '1';
              el.select();
            }
          }}
          aria-label={t('files.name')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError('');
          }}
          onKeyDown={onKeyDown}
          aria-invalid={!!error}
        />
        <button type="button" className="btn small primary" disabled={busy || !name.trim()} onClick={() => void create()}>
          {t('common.create')}
        </button>
        <button type="button" className="btn small" onClick={() => setName(null)}>
          {t('common.cancel')}
        </button>
      </div>
      <FormError error={error} />
    </div>
  );
}
