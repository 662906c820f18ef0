/** How many uploads run at once (seed 000 §3 "maximum parallel uploads override"): kept in this browser and the account. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PARALLEL_UPLOADS_KEY } from '../settings/setting-keys';
import { saveSetting } from '../settings/settings-sync';
import { parallelLimit } from './upload-queue';
import { UPLOAD } from './upload-status';

const CHOICES = Array.from({ length: UPLOAD.maxParallelOverride }, (_, i) => i + 1);

export function ParallelUploads({ onChange }: { onChange: () => void }) {
  const { t } = useTranslation();
  const read = () => localStorage.getItem(PARALLEL_UPLOADS_KEY) ?? '';
  const [value, setValue] = useState(read);
  const choose = (v: string) => {
    if (v) localStorage.setItem(PARALLEL_UPLOADS_KEY, v);
    else localStorage.removeItem(PARALLEL_UPLOADS_KEY);
    setValue(v);
    saveSetting('max_parallel_uploads', v ? Number(v) : null);
    onChange();
  };
  return (
    <label className="parallel-uploads">
      {t('uploads.parallel')}{' '}
      {/* Read again on focus: another browser may have changed it (it follows the account). */}
      <select value={value} onChange={(e) => choose(e.target.value)} onFocus={() => setValue(read())}>
        <option value="">{t('uploads.parallelDefault', { count: parallelLimit(null) })}</option>
        {CHOICES.map((n) => (
          <option key={n} value={String(n)}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
