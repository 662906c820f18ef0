/** A feedback screenshot fetched with the session (never a bare URL: it is only its author's and the operators'). */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export function ScreenshotImage({ queryKey, load, alt }: { queryKey: readonly unknown[]; load: (signal: AbortSignal) => Promise<Blob>; alt: string }) {
  const { t } = useTranslation();
  const blob = useQuery({ queryKey, queryFn: ({ signal }) => load(signal), staleTime: Infinity, retry: false, meta: { quiet: true } });
  const url = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : ''), [blob.data]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  if (blob.isError) return <p className="muted">{t('feedback.screenshotFailed')}</p>;
  if (!url) return <p className="muted">{t('common.loading')}</p>;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="feedback-shot">
      <img src={url} alt={alt} />
    </a>
  );
}
